/**
 * The load client: a child process of run.ts (one or more: client-process.ts), so that the client
 * and the server do not share an event loop. It signs every request itself, as a real client must
 * (each needs a fresh nonce and timestamp), with lean-signer.ts, and speaks HTTP over raw
 * keep-alive sockets (raw-http.ts): both cost a fraction of what `oauth-1.0a` and node:http's
 * client cost per request, so the client is not what a row measures.
 */
import http from 'node:http';
import { LeanSigner } from './lean-signer.ts';
import { runLoad } from './load.ts';
import type { FromClient, Scenario, ScenarioResult, ToClient } from './scenarios.ts';

function send(message: FromClient): void {
  process.send!(message);
}

function get(port: number, path: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res));
      })
      .on('error', reject);
  });
}

/** The paths in the order the run sends them: rotating for a timed window, or each once after the warm-up's. */
function pathSource(scenario: Scenario): { next: () => string; requests?: { warmup: number; measured: number } } {
  let turn = 0;
  if (!scenario.once) return { next: () => scenario.paths[turn++ % scenario.paths.length]! };
  const all = [...(scenario.warmupPaths ?? []), ...scenario.paths];
  return {
    next: () => all[turn++]!,
    requests: { warmup: all.length - scenario.paths.length, measured: scenario.paths.length },
  };
}

async function run(scenario: Scenario): Promise<ScenarioResult> {
  const origin = `http://127.0.0.1:${scenario.port}`;
  const signer = scenario.sign
    ? new LeanSigner(origin, scenario.consumer ?? missingConsumer(scenario), scenario.token)
    : undefined;
  const auth = (path: string): Record<string, string> => (signer ? { authorization: signer.authorization(path) } : {});
  const etags = new Map<string, string>();
  if (scenario.conditional) {
    for (const path of scenario.paths) {
      const res = await get(scenario.port, path, { ...scenario.headers, ...auth(path) });
      const etag = res.headers.etag;
      if (res.statusCode !== 200 || !etag) throw new Error(`priming ${path}: ${res.statusCode}`);
      etags.set(path, etag);
    }
  }
  const source = pathSource(scenario);
  let cpuAtStart = process.cpuUsage();
  let cpuUsed = 0;
  const result = await runLoad({
    port: scenario.port,
    connections: scenario.connections,
    warmupMs: scenario.warmupMs,
    durationMs: scenario.durationMs,
    requests: source.requests,
    next: () => {
      const path = source.next();
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
  return { ...result, name: scenario.name, clientCpu: result.seconds > 0 ? cpuUsed / 1e6 / result.seconds : 0 };
}

function missingConsumer(scenario: Scenario): never {
  throw new Error(`${scenario.name}: a signed scenario needs its consumer`);
}

process.on('message', (message: ToClient) => {
  if (message.type === 'exit') process.exit(0);
  run(message.scenario).then(
    (result) => send({ type: 'result', result }),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

send({ type: 'ready' });
