import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EmbeddedServiceInfo } from './core/app-core.ts';

/**
 * The embedded service runs in its own process: `child_process` here (web host), Electron's
 * `utilityProcess` in main.ts. Both read its readiness from the same lines through `attachService`.
 */

export interface EmbeddedService extends EmbeddedServiceInfo {
  /** The loopback port it listens on (a restart asks for the same one). */
  port: number;
  /** Resolves when the process has exited, whatever the cause (a stop, a crash, a kill). */
  exited: Promise<void>;
  /** Its process id, when the platform gave one. */
  pid: number | undefined;
  /** Asks the process to stop (SIGTERM), and kills it if it has not exited in time. */
  stop(): Promise<void>;
}

/** What both a ChildProcess and an Electron UtilityProcess offer. */
export interface ServiceProcess {
  stdout: NodeJS.ReadableStream | null;
  stderr: NodeJS.ReadableStream | null;
  /** ChildProcess.kill(signal) / UtilityProcess.kill() (SIGTERM on POSIX). */
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
  readonly pid?: number | undefined;
}

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

/** The repository (or packaged app) root: the parent of electron/ in source, of dist/ when bundled. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The service's data under the app's user-data folder. */
export function serviceDataDir(userDataDir: string): string {
  return join(userDataDir, 'service');
}

/**
 * Service flags: loopback, `port` (0, the default: any free one), data under user data, the demo
 * account shown on its sign-in page, then MARQUEE_SERVICE_ARGS (extra flags split on spaces,
 * e.g. `--per-second 3`).
 */
export function serviceArgs(userDataDir: string, env: NodeJS.ProcessEnv = process.env, port = 0): string[] {
  const extra = (env.MARQUEE_SERVICE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');
  return ['--data-dir', serviceDataDir(userDataDir), '--host', '127.0.0.1', '--port', String(port), '--demo', ...extra];
}

/**
 * How to start the service: the bundled `dist/service.mjs` in a packaged app, else the
 * `scripts/service.mjs` launcher, else `dist/service.mjs` (built files without the sources, as
 * test/build runs them), else `service/main.ts` through tsx.
 */
export function serviceEntry(root: string = ROOT, packaged = false): { modulePath: string; execArgv: string[] } {
  const bundled = join(root, 'dist', 'service.mjs');
  if (packaged) return { modulePath: bundled, execArgv: [] };
  const launcher = join(root, 'scripts', 'service.mjs');
  if (existsSync(launcher)) return { modulePath: launcher, execArgv: [] };
  if (existsSync(bundled)) return { modulePath: bundled, execArgv: [] };
  const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
  return { modulePath: join(root, 'service', 'main.ts'), execArgv: ['--import', tsx] };
}

/** The service's environment: ours without settings that would move its data, database or address. */
export function serviceEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^(MARQUEE_(HOST|PORT|BASE_URL|DATA_DIR|TRUST_PROXY)|DATABASE_URL|NODE_OPTIONS)$/.test(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Reads the readiness lines the service prints; null until all three have appeared. */
export function parseReadiness(output: string): EmbeddedServiceInfo | null {
  const url = /^Marquee service listening on (\S+)\s*$/m.exec(output)?.[1];
  const key = /^demo consumer key: (\S+)\s*$/m.exec(output)?.[1];
  const secret = /^demo consumer secret: (\S+)\s*$/m.exec(output)?.[1];
  if (!url || !key || !secret) return null;
  // A base URL line, when printed, is what ids and links are built on.
  const base = /^base URL: (\S+)\s*$/m.exec(output)?.[1];
  const demo = /^demo sign-in: login (\S+), password (\S+)\s*$/m.exec(output);
  return {
    url: base ?? url,
    consumer: { key, secret },
    ...(demo ? { demoSignIn: { login: demo[1]!, password: demo[2]! } } : {}),
  };
}

/** The port of the "listening on" line (the socket's, whatever base URL ids are built on). */
export function listeningPort(output: string): number | null {
  const url = /^Marquee service listening on (\S+)\s*$/m.exec(output)?.[1];
  const port = url ? Number(new URL(url).port) : NaN;
  return Number.isInteger(port) && port > 0 ? port : null;
}

/** Waits for the readiness lines of a started service process and wraps it with `stop`. */
export function attachService(
  proc: ServiceProcess,
  opts: { timeoutMs?: number; log?: (line: string) => void } = {},
): Promise<EmbeddedService> {
  let output = '';
  let exited = false;
  const exit = new Promise<void>((resolve) => proc.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (exited) return;
    proc.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)));
    if ((await Promise.race([exit, late])) === 'late') {
      proc.kill('SIGKILL');
      await exit;
    }
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () => fail(`was not ready after ${opts.timeoutMs ?? START_TIMEOUT_MS} ms`),
      opts.timeoutMs ?? START_TIMEOUT_MS,
    );
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`The embedded service ${why}.\n${output.trim()}`));
    };
    const onData = (chunk: Buffer | string) => {
      if (settled) return void opts.log?.(chunk.toString().trimEnd()); // after readiness: its log (--log-level), not collected
      output += chunk.toString();
      const ready = parseReadiness(output);
      if (!ready) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...ready, port: listeningPort(output) ?? 0, exited: exit, pid: proc.pid, stop });
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (chunk: Buffer | string) => {
      if (!settled) output += chunk.toString();
      opts.log?.(chunk.toString().trimEnd());
    });
    void exit.then(() => fail('exited before it was ready'));
  });
}

/** Starts the service as a Node child process (the web host's way; `node` defaults to this one). */
export function startEmbeddedService(opts: {
  userDataDir: string;
  port?: number;
  root?: string;
  node?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<EmbeddedService> {
  const root = opts.root ?? ROOT;
  const entry = serviceEntry(root);
  const child = spawn(
    opts.node ?? process.execPath,
    [...entry.execArgv, entry.modulePath, ...serviceArgs(opts.userDataDir, process.env, opts.port)],
    {
      cwd: root,
      env: serviceEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return attachService(child, {
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
}
