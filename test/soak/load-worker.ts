/**
 * A soak load worker: a child process of the soak (so the load has its own core), running
 * `connections` keep-alive connections in a closed loop of the configured mix, every request
 * signed with a fresh nonce by the `oauth-1.0a` library. Reports its counts whenever asked.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import OAuth from 'oauth-1.0a';
import type { Credentials } from '../helpers/oauth-client.ts';
import { seeded } from '../helpers/signed-fetch.ts';
import { record, type Histogram } from './histogram.ts';
import type { FromWorker, Mix, ToWorker, WorkerConfig, WorkerReport } from './mix.ts';

interface Request {
  method: 'GET' | 'POST';
  path: string;
  form?: Record<string, string>;
  token?: Credentials;
  signed: boolean;
  headers?: Record<string, string>;
}

let counts = fresh();
let cpuMark = process.cpuUsage();
let stopped = false;

function fresh(): Omit<WorkerReport, 'cpuSeconds'> & { histogram: Histogram } {
  return { requests: 0, errors: 0, statuses: {}, histogram: {}, samples: [] };
}

function take(): WorkerReport {
  const used = process.cpuUsage(cpuMark);
  cpuMark = process.cpuUsage();
  const report = { ...counts, cpuSeconds: (used.user + used.system) / 1e6 };
  counts = fresh();
  return report;
}

function send(message: FromWorker): void {
  process.send!(message);
}

function pickKind(mix: Mix, roll: number): keyof Mix {
  const kinds = Object.keys(mix) as Array<keyof Mix>;
  const total = kinds.reduce((n, k) => n + mix[k], 0);
  let at = roll * total;
  for (const k of kinds) {
    if (at < mix[k]) return k;
    at -= mix[k];
  }
  return kinds[0]!;
}

/** One connection's endless loop: it reads, and writes only its own title (so writes never collide). */
async function connection(config: WorkerConfig, index: number, oauth: OAuth, agents: http.Agent[]): Promise<void> {
  const global = config.firstConnection + index;
  const next = seeded(global + 1);
  const node = global % config.ports.length;
  const port = config.ports[node]!;
  const subscriber = config.subscribers[global % config.subscribers.length]!;
  const own = config.writeTitles[global]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  let queued = false;
  while (!stopped) {
    const kind = pickKind(config.mix, next());
    const request: Request =
      kind === 'title'
        ? {
            method: 'GET',
            path: `/catalog/titles/movies/${pick(config.titles)}?expand=synopsis,cast,directors`,
            signed: true,
          }
        : kind === 'search'
          ? {
              method: 'GET',
              path: `/catalog/titles?term=${encodeURIComponent(pick(config.words))}&max_results=25`,
              signed: true,
            }
          : kind === 'autocomplete'
            ? {
                method: 'GET',
                path: `/catalog/titles/autocomplete?term=${encodeURIComponent(pick(config.prefixes))}&oauth_consumer_key=${config.consumer.key}`,
                signed: false,
              }
            : kind === 'queue'
              ? {
                  method: 'GET',
                  path: `/users/${subscriber.id}/queues/instant?max_results=50`,
                  signed: true,
                  token: subscriber.token,
                }
              : queued
                ? {
                    method: 'POST',
                    path: `/users/${subscriber.id}/queues/instant/available/${own}`,
                    form: {},
                    headers: { 'x-http-method-override': 'DELETE' },
                    signed: true,
                    token: subscriber.token,
                  }
                : {
                    method: 'POST',
                    path: `/users/${subscriber.id}/queues/instant`,
                    form: { title_ref: `http://127.0.0.1:${port}/catalog/titles/movies/${own}` },
                    signed: true,
                    token: subscriber.token,
                  };
    const status = await exchange(port, agents[node]!, oauth, request);
    if (kind === 'write' && status < 300) queued = !queued;
  }
}

/** Sends one request and records its latency and status; the status (0: the connection failed). */
function exchange(port: number, agent: http.Agent, oauth: OAuth, request: Request): Promise<number> {
  const url = `http://127.0.0.1:${port}${request.path}`;
  const body = request.form ? new URLSearchParams(request.form).toString() : undefined;
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.signed)
    headers.authorization = oauth.toHeader(
      oauth.authorize({ url, method: request.method, data: request.form ?? {} }, request.token),
    ).Authorization;
  if (body !== undefined)
    Object.assign(headers, {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': Buffer.byteLength(body),
    });
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: request.path, method: request.method, headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          if (res.statusCode! >= 400 && text.length < 300) text += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          counts.requests++;
          record(counts.histogram, Number(process.hrtime.bigint() - started) / 1e6);
          counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
          if (status >= 400) failed(`${status} ${request.method} ${request.path}: ${text.slice(0, 200)}`);
          resolve(status);
        });
      },
    );
    req.on('error', (error) => {
      counts.requests++;
      failed(`${request.method} ${request.path}: ${error.message}`);
      resolve(0);
    });
    req.end(body);
  });
}

function failed(sample: string): void {
  counts.errors++;
  if (counts.samples.length < 5) counts.samples.push(sample);
}

function start(config: WorkerConfig): Promise<void[]> {
  const oauth = new OAuth({
    consumer: { key: config.consumer.key, secret: config.consumer.secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const perNode = Math.ceil(config.connections / config.ports.length);
  const agents = config.ports.map(
    () => new http.Agent({ keepAlive: true, maxSockets: perNode, maxFreeSockets: perNode }),
  );
  counts = fresh();
  cpuMark = process.cpuUsage();
  return Promise.all(Array.from({ length: config.connections }, (_, i) => connection(config, i, oauth, agents)));
}

let running: Promise<void[]> | undefined;
process.on('message', (message: ToWorker) => {
  if (message.type === 'start') running = start(message.config);
  else if (message.type === 'report') send({ type: 'report', report: take() });
  else {
    stopped = true;
    void (running ?? Promise.resolve()).then(() => {
      send({ type: 'stopped', report: take() });
      process.exit(0);
    });
  }
});
send({ type: 'ready' });
