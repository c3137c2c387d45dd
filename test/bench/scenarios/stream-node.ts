/** What S10 and S11 share: a change-stream node of their own, flags, memory and percentiles (not a scenario). */
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../service/server.ts';
import type { Db } from '../../../service/store/db.ts';
import type { BenchContext } from '../context.ts';

/** The bench's public base URL (setup.ts): ids in bodies and events name it. */
export const BENCH_BASE = 'http://127.0.0.1:8710';

/** A service node on `db` as `npm run service` builds one (default stream limits), on loopback port 0. */
export async function streamNode(ctx: BenchContext, db: Db): Promise<{ app: FastifyInstance; port: number }> {
  const app = buildServer({ db, baseUrl: BENCH_BASE });
  await app.listen({ host: '127.0.0.1', port: 0 });
  ctx.onCleanup(() => app.close());
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** A number given on the bench's command line (`--streams 500`), else `fallback`. */
export function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number, not "${process.argv[i + 1]}"`);
  return n;
}

let collect: (() => void) | undefined;

/** RSS and heap in bytes after a full collection, so garbage waiting does not count as held. */
export function memoryNow(): { rss: number; heap: number } {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

export const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
