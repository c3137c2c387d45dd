/**
 * Change-stream clients in a process of their own (forked by stream-clients-process.ts), so that
 * holding thousands of sockets costs the service's process nothing but the service's side of them.
 * Each stream is a raw socket with a signed `GET /users/UID/changes`, from a loopback source address
 * of its own share (the service bounds connections per address). Commands in, one answer each.
 */
import net from 'node:net';
import { authHeader } from '../helpers/oauth-client.ts';
import { LeanSigner } from './lean-signer.ts';
import type { Consumer } from './scenarios.ts';

/** One stream to open: whose, signed by which application, from which loopback address. */
export interface StreamSpec {
  userId: string;
  consumer: Consumer;
  token: Consumer;
  localAddress: string;
}

export type StreamCommand =
  | { type: 'open'; port: number; streams: StreamSpec[]; inFlight: number }
  | { type: 'quiet-since'; since: number }
  | { type: 'latency'; stream: number; writePort: number; spec: StreamSpec; titleIds: number[] }
  | { type: 'pause'; stream: number }
  | { type: 'resume'; stream: number; waitMs: number }
  | { type: 'close' };

export type StreamAnswer =
  | { type: 'opened'; ready: number; refused: Record<string, number>; firstIndex: number; ms: number }
  | { type: 'quiet'; open: number; heardFrom: number; closed: number }
  | { type: 'latencies'; ms: number[]; fromSent: number[]; eventFirst: number }
  | { type: 'paused' }
  | { type: 'resumed'; ended: boolean; bytes: number; events: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/** One held stream: its socket, whether it is ready, when it last heard anything, what it read. */
interface Held {
  socket: net.Socket;
  ready: boolean;
  closed: boolean;
  lastDataAt: number;
  /** Text kept only while a caller watches it (latency, resume), else dropped as it comes. */
  text: string | undefined;
  bytes: number;
  onData?: (() => void) | undefined;
}

function openOne(port: number, spec: StreamSpec): Promise<{ held: Held | undefined; status: string }> {
  const path = `/users/${spec.userId}/changes`;
  const signer = new LeanSigner(`http://127.0.0.1:${port}`, spec.consumer, spec.token);
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: ${signer.authorization(path)}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: spec.localAddress });
    const h: Held = { socket, ready: false, closed: false, lastDataAt: 0, text: '', bytes: 0 };
    let settled = false;
    const settle = (status: string, kept: boolean) => {
      if (settled) return;
      settled = true;
      if (!kept) socket.destroy();
      resolve({ held: kept ? h : undefined, status });
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      h.lastDataAt = Date.now();
      h.bytes += chunk.length;
      if (h.text !== undefined) h.text += chunk.toString('latin1');
      if (!h.ready && h.text !== undefined) {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(h.text)?.[1];
        if (status && status !== '200') return settle(status, false);
        if (h.text.includes('event: ready')) {
          h.ready = true;
          h.text = undefined;
          settle('200', true);
        }
      }
      h.onData?.();
    });
    socket.on('error', () => settle('socket error', false));
    socket.on('close', () => {
      h.closed = true;
      settle('closed before ready', false);
      h.onData?.();
    });
  });
}

async function openAll(held: Held[], port: number, streams: StreamSpec[], inFlight: number): Promise<StreamAnswer> {
  const started = performance.now();
  const firstIndex = held.length;
  const refused: Record<string, number> = {};
  let next = 0;
  let ready = 0;
  const worker = async () => {
    while (next < streams.length) {
      const spec = streams[next++]!;
      const { held: h, status } = await openOne(port, spec);
      if (h) {
        held.push(h);
        ready++;
      } else refused[status] = (refused[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, streams.length) }, worker));
  return { type: 'opened', ready, refused, firstIndex, ms: performance.now() - started };
}

/** Waits until the stream's kept text matches, or `ms` pass. */
function waitForText(h: Held, test: (text: string) => boolean, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      h.onData = undefined;
      resolve(ok);
    };
    h.onData = () => {
      if (test(h.text ?? '')) done(true);
      else if (h.closed) done(false);
    };
    h.onData();
  });
}

/** Rates one title per write on `spec`'s subscriber; the time from each answer to its event on stream `index`. */
async function latencies(
  held: Held[],
  index: number,
  writePort: number,
  spec: StreamSpec,
  titleIds: number[],
): Promise<StreamAnswer> {
  const h = held[index]!;
  const path = `/users/${spec.userId}/ratings/title/actual`;
  const url = `http://127.0.0.1:${writePort}${path}`;
  const ms: number[] = [];
  const fromSent: number[] = [];
  let eventFirst = 0;
  for (const [i, id] of titleIds.entries()) {
    h.text = '';
    let arrived: number | undefined;
    const seen = waitForText(h, (t) => t.includes(`/movies/${id}"`), 10_000).then((ok) => {
      arrived = ok ? performance.now() : undefined;
      return ok;
    });
    const form = { title_ref: `http://127.0.0.1:8710/catalog/titles/movies/${id}`, rating: String((i % 5) + 1) };
    const sent = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: authHeader(spec.consumer, 'POST', url, form, spec.token),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });
    await res.text();
    const answered = performance.now();
    if (res.status >= 300) throw new Error(`rating a title answered ${res.status}`);
    if (!(await seen)) throw new Error(`no rating event within 10 s of write ${i + 1}`);
    if (arrived! < answered) eventFirst++;
    ms.push(Math.max(0, arrived! - answered));
    fromSent.push(arrived! - sent);
  }
  h.text = undefined;
  return { type: 'latencies', ms, fromSent, eventFirst };
}

/** Reads a paused stream again until it ends or `waitMs` pass: whether the service had closed it. */
async function resume(held: Held[], index: number, waitMs: number): Promise<StreamAnswer> {
  const h = held[index]!;
  h.text = '';
  h.socket.resume();
  const ended = await waitForText(h, () => h.closed, waitMs);
  const events = (h.text.match(/\nevent: /g) ?? []).length;
  h.text = undefined;
  return { type: 'resumed', ended, bytes: h.bytes, events };
}

/** The streams this process holds, in the order opened: commands name one by its index. */
async function answer(held: Held[], command: StreamCommand): Promise<StreamAnswer> {
  switch (command.type) {
    case 'open':
      return openAll(held, command.port, command.streams, command.inFlight);
    case 'quiet-since': {
      const open = held.filter((h) => !h.closed);
      const heardFrom = open.filter((h) => h.lastDataAt >= command.since).length;
      return { type: 'quiet', open: open.length, heardFrom, closed: held.length - open.length };
    }
    case 'latency':
      return latencies(held, command.stream, command.writePort, command.spec, command.titleIds);
    case 'pause':
      held[command.stream]!.socket.pause();
      return { type: 'paused' };
    case 'resume':
      return resume(held, command.stream, command.waitMs);
    case 'close':
      for (const h of held) h.socket.destroy();
      held.length = 0;
      return { type: 'closed' };
  }
}

const held: Held[] = [];
process.on('message', (command: StreamCommand) => {
  answer(held, command).then(
    (a) => process.send!(a),
    (error: unknown) =>
      process.send!({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
});
process.send!({ type: 'ready' });
