/**
 * The load client: a child process of run.ts, so that on a 2-core machine the client and the
 * server each have a core and do not share an event loop. It signs every request itself, as a
 * real client must (each needs a fresh nonce), with the `oauth-1.0a` library the app uses.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import OAuth from 'oauth-1.0a';
import { runLoad } from './load.ts';
import type { Consumer, FromClient, Scenario, ScenarioResult, ToClient } from './scenarios.ts';

function send(message: FromClient): void {
  process.send!(message);
}

export function signer(consumer: Consumer): (url: string, token?: Consumer) => string {
  const oauth = new OAuth({
    consumer: { key: consumer.key, secret: consumer.secret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  return (url, token) => oauth.toHeader(oauth.authorize({ url, method: 'GET' }, token)).Authorization;
}

/** Client CPU time one signature costs, in microseconds (what each signed request adds client-side). */
function measureSigning(sign: (url: string) => string): number {
  const url = 'http://127.0.0.1:8710/catalog/titles/movies/60000100?expand=synopsis,cast';
  for (let i = 0; i < 2_000; i++) sign(url);
  const n = 20_000;
  const started = process.cpuUsage();
  for (let i = 0; i < n; i++) sign(url);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / n;
}

function get(port: number, path: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    }).on('error', reject);
  });
}

async function run(scenario: Scenario, sign: (url: string, token?: Consumer) => string): Promise<ScenarioResult> {
  const origin = `http://127.0.0.1:${scenario.port}`;
  const auth = (path: string): Record<string, string> => (scenario.sign ? { authorization: sign(origin + path, scenario.token) } : {});
  const etags = new Map<string, string>();
  if (scenario.conditional) {
    for (const path of scenario.paths) {
      const res = await get(scenario.port, path, { ...scenario.headers, ...auth(path) });
      const etag = res.headers.etag;
      if (res.statusCode !== 200 || !etag) throw new Error(`priming ${path}: ${res.statusCode}`);
      etags.set(path, etag);
    }
  }
  let turn = 0;
  let cpuAtStart = process.cpuUsage();
  let cpuUsed = 0;
  const result = await runLoad({
    port: scenario.port,
    connections: scenario.connections,
    warmupMs: scenario.warmupMs,
    durationMs: scenario.durationMs,
    next: () => {
      const path = scenario.paths[turn++ % scenario.paths.length]!;
      const etag = etags.get(path);
      return { path, headers: { ...scenario.headers, ...auth(path), ...(etag ? { 'if-none-match': etag } : {}) } };
    },
    onWindow: (edge) => {
      if (edge === 'start') cpuAtStart = process.cpuUsage();
      else {
        const used = process.cpuUsage(cpuAtStart);
        cpuUsed = used.user + used.system;
      }
      send({ type: 'window', edge });
    },
  });
  return { ...result, name: scenario.name, clientCpu: cpuUsed / 1e6 / result.seconds };
}

const consumer = JSON.parse(process.env.BENCH_CONSUMER ?? '{}') as Consumer;
const sign = signer(consumer);

process.on('message', (message: ToClient) => {
  if (message.type === 'exit') process.exit(0);
  run(message.scenario, sign).then(
    (result) => send({ type: 'result', result }),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

send({ type: 'ready', signMicros: measureSigning(sign) });
