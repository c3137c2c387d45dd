import { readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../electron/core/transport/index.ts';
import { ServiceError } from '../../electron/core/types.ts';
import type { SyncedQueue } from '../../electron/core/queue/index.ts';
import type { Exchange } from './helpers/live-core.ts';
import {
  instantTitles,
  setInstantQueue,
  startLiveCore,
  valueOf,
  waitFor,
  type LiveCoreEnv,
} from './helpers/live-core.ts';
import { urlOf } from '../helpers/fetch-input.ts';

/**
 * The app's core when the network and the service misbehave (issue 10, "App core faults"): the
 * real core against the real service on loopback, with faults injected in its fetch. Only safe
 * requests are repeated by the transport (a GET; never a POST); an edit whose fate is unknown
 * stays in the outbox and is replayed against the queue as it then is, so it is never doubled;
 * every failure reaches the caller in words.
 */
type Fault = 'drop-before' | 'drop-after' | 'truncate' | 'status-500' | 'restart';

let env: LiveCoreEnv;
let t: string[];
const exchanges: Exchange[] = [];
/** One-shot faults: the next request of that method whose URL ends with `path` meets it. */
const faults: Array<{ method: string; path: RegExp; fault: Fault }> = [];

const dropped = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });

const faultyFetch: typeof fetch = async (input, init) => {
  const method = init?.method ?? 'GET';
  const url = urlOf(input);
  const entry: Exchange = { method, url, ifMatch: new Headers(init?.headers).get('if-match') ?? undefined, status: 0 };
  exchanges.push(entry);
  const at = faults.findIndex((f) => f.method === method && f.path.test(new URL(url).pathname));
  const fault = at >= 0 ? faults.splice(at, 1)[0]!.fault : undefined;
  if (fault === 'drop-before') throw dropped();
  if (fault === 'status-500') {
    entry.status = 500;
    return new Response(
      '<?xml version="1.0"?><status><status_code>500</status_code><message>Internal error</message></status>',
      { status: 500, headers: { 'content-type': 'application/xml' } },
    );
  }
  if (fault === 'restart') {
    await env.stopService();
    void env.startService(); // back at once: the app's probe finds it
    throw dropped();
  }
  const res = await fetch(input, init);
  entry.status = res.status;
  if (fault === 'drop-after') {
    await res.arrayBuffer(); // the service did the work; the answer is lost on the way
    throw dropped();
  }
  if (fault === 'truncate') {
    const text = await res.text();
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(text.slice(0, Math.floor(text.length / 2)), { status: res.status, headers });
  }
  return res;
};

beforeAll(async () => {
  env = await startLiveCore({ core: { fetch: faultyFetch } });
  t = (await instantTitles(env.other, 4)).map((x) => x.ref);
});
afterAll(() => env?.close());

beforeEach(async () => {
  faults.length = 0;
  const [a, b, c] = t as [string, string, string];
  await setInstantQueue(env.other, [a, b, c]);
  valueOf(await env.core.dispatch('queue.list', { kind: 'instant' }));
  exchanges.length = 0;
  env.events.length = 0;
});

const QUEUE = /\/queues\/instant$/;
const order = (q: { items: Array<{ ref: string }> }) => q.items.map((i) => i.ref);
const serviceOrder = async () => order(await env.other.queue('instant'));
const writes = () => exchanges.filter((x) => x.method !== 'GET');
const pending = async () => valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })).pendingEdits;

describe('dropped connections', () => {
  it('a read is repeated (a GET is safe to send twice)', async () => {
    faults.push({ method: 'GET', path: QUEUE, fault: 'drop-before' });
    expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual(t.slice(0, 3));
    expect(exchanges.filter((x) => QUEUE.test(new URL(x.url).pathname)).map((x) => x.status)).toEqual([0, 304]); // the second try revalidated
  });

  it('a write that reached the service is not sent again blindly: the outbox keeps it, its replay finds it done', async () => {
    const d = t[3]!;
    faults.push({ method: 'POST', path: QUEUE, fault: 'drop-after' });

    const queue = valueOf(await env.core.dispatch('queue.add', { kind: 'instant', ref: d })) as SyncedQueue;
    expect(queue.pendingEdits).toBe(1); // kept: the app cannot know the service made it

    await waitFor(async () => (await pending()) === 0, 'the outbox to drain');
    expect(await serviceOrder()).toEqual([...t.slice(0, 3), d]); // once, not twice
    // The transport sent the POST once; the replay went out on the old etag and was refused.
    expect(writes().map((x) => x.status)).toEqual([201, 412]);
  });

  it('a restart of the service in the middle of replaying the outbox: each edit lands once, in order', async () => {
    const [a, b, c, d] = t as [string, string, string, string];
    await env.stopService();
    try {
      valueOf(await env.core.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 })); // [c, a, b]
      valueOf(await env.core.dispatch('queue.add', { kind: 'instant', ref: d, position: 2 })); // [c, d, a, b]
      valueOf(await env.core.dispatch('queue.remove', { kind: 'instant', ref: a })); // [c, d, b]
      expect(await pending()).toBe(3);
    } finally {
      await env.startService();
    }
    const mark = exchanges.length;
    faults.push({ method: 'POST', path: QUEUE, fault: 'restart' }); // the next write: the service goes down and comes back
    env.core.dispatch('queue.list', { kind: 'instant' }).catch(() => undefined); // any answer resumes the replay

    await waitFor(
      async () => (await serviceOrder()).join() === [c, d, b].join() && (await pending()) === 0,
      'the outbox to land',
      15_000,
    );
    const made = exchanges
      .slice(mark)
      .filter((x) => x.method !== 'GET' && x.status >= 200 && x.status < 300)
      .map((x) => x.method);
    expect(made).toEqual(['POST', 'POST', 'DELETE']);
  });
});

describe('broken answers', () => {
  it('truncated XML is a clear error, and the next reads are whole (a torn body kept by the cache is read afresh)', async () => {
    const [a, b] = t as [string, string];
    await setInstantQueue(env.other, [b, a]); // a new version: the app's next read is a 200 with a body
    faults.push({ method: 'GET', path: QUEUE, fault: 'truncate' });

    const torn = await env.core.dispatch('queue.list', { kind: 'instant' });

    expect(torn.ok).toBe(false);
    if (!torn.ok)
      expect(torn.error).toMatchObject({
        kind: 'server',
        message: expect.stringMatching(/^Unexpected response from the service: /),
      });
    exchanges.length = 0;
    expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual([b, a]);
    expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual([b, a]);
    // The torn body is served once from the cache (304), asked for afresh (200), and replaced: then 304s again.
    expect(exchanges.filter((x) => QUEUE.test(new URL(x.url).pathname)).map((x) => x.status)).toEqual([304, 200, 304]);
  });

  it('a 500 to a read is retried; a 500 to a write is not: the caller is told, the edit is kept and made later', async () => {
    const [a, b, c] = t as [string, string, string];
    faults.push({ method: 'GET', path: QUEUE, fault: 'status-500' });
    expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual([a, b, c]);

    faults.push({ method: 'POST', path: QUEUE, fault: 'status-500' });
    const failed = await env.core.dispatch('queue.move', { kind: 'instant', ref: c, position: 1 });

    expect(failed.ok).toBe(false);
    if (!failed.ok)
      expect(failed.error).toMatchObject({
        kind: 'server',
        status: 500,
        message: 'Internal error. Your change was kept and will be tried again.',
      });
    await waitFor(async () => (await pending()) === 0, 'the kept edit to be made');
    expect(await serviceOrder()).toEqual([c, a, b]);
    expect(writes().map((x) => x.status)).toEqual([500, 201]);
  });
});

describe('timeouts', () => {
  it('a request with no answer in time is an offline error in words, and a write is never repeated', async () => {
    let calls = 0;
    const silent: typeof fetch = (_input, init) => {
      calls++;
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    };
    const transport = createTransport({
      getContext: () => ({
        baseUrl: env.svc.url,
        consumer: { key: env.svc.consumer.key, secret: env.svc.consumer.secret },
        token: { key: 'k', secret: 's' },
      }),
      fetch: silent,
      timeoutMs: 1000,
    });
    const write = transport.request({
      method: 'POST',
      url: '/users/x/queues/instant',
      form: { title_ref: t[0]! },
      ifMatch: '"1"',
      level: 'protected',
    });
    await expect(write).rejects.toThrow(ServiceError);
    await expect(write).rejects.toMatchObject({
      appError: { kind: 'offline', message: 'No answer from the service within 1 s' },
    });
    expect(calls).toBe(1);
  });
});

describe('the ETag cache', () => {
  it('a torn cache file (the process died mid-write) is dropped and read afresh, not served', async () => {
    const [a, b, c] = t as [string, string, string];
    const files = entryFiles(join(env.dir, 'etag-cache'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) truncateSync(file, Math.floor(statSync(file).size / 2));
    await env.restartCore();
    exchanges.length = 0;

    expect(order(valueOf(await env.core.dispatch('queue.list', { kind: 'instant' })))).toEqual([a, b, c]);
    const read = exchanges.filter((x) => QUEUE.test(new URL(x.url).pathname));
    expect(read.map((x) => x.status)).toEqual([200]); // a full read: the torn entry was not offered
    expect(entryFiles(join(env.dir, 'etag-cache')).some((f) => readFileSync(f, 'utf8').includes(a))).toBe(true); // written anew
  });
});

function entryFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.entry'))
    .map((name) => join(dir, name));
}
