import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Credentials } from './oauth-client.ts';

/**
 * The service as a real process reached over loopback HTTP, started as `npm run service` starts it
 * (LAUNCHER_ENTRY: service/main.ts from the launcher's esbuild bundle, built once for the sources
 * as they are), or through tsx (TSX_ENTRY). Used by the process tests and by tests that need
 * several service nodes. The launcher by default: tsx's loader cost 1.5–2 s of CPU (and 5–7 s of a
 * busy machine's wall time) of every one of the suite's ~30 starts and commands, the bundle 0.2.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's ESM loader, resolved from the package rather than assumed at a path. */
export const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** Node arguments before the service's own: the sources through tsx, or the `npm run service` launcher (the default). */
export const TSX_ENTRY = ['--import', TSX, 'service/main.ts'];
export const LAUNCHER_ENTRY = ['scripts/service.mjs'];
const STOP_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 90_000;

/** The child's environment: ours without settings that would steer it elsewhere. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^MARQUEE_|^DATABASE_URL$|^NODE_OPTIONS$/.test(name)) delete env[name];
  return { ...env, ...extra };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningService {
  proc: ChildProcess;
  /** The address it listens on, from "Marquee service listening on …". */
  localUrl: string;
  /** The base URL of ids and links: the "base URL:" line when one was set, else localUrl. */
  baseUrl: string;
  demo: Credentials;
  /** Milliseconds from spawn to the readiness lines. */
  readyMs: number;
  output(): string;
  stop(signal: NodeJS.Signals): Promise<Exit>;
}

export const running = new Set<ChildProcess>();

/** Starts the service and resolves once it has printed its address and demo credentials. */
export function startService(
  args: string[],
  env: Record<string, string> = {},
  entry: string[] = LAUNCHER_ENTRY,
): Promise<RunningService> {
  const started = performance.now();
  const proc = spawn(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  /** 'close', not 'exit': by then everything the process wrote has been read. */
  const closed = new Promise<Exit>((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
  proc.once('exit', () => running.delete(proc));
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const output = () => stdout + stderr;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready after ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const earlyExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited (${code ?? signal}) before it was ready`);
    function fail(why: string) {
      clearTimeout(timer);
      proc.stdout.off('data', onData);
      proc.kill('SIGKILL');
      reject(new Error(`service ${why}:\n${output()}`));
    }
    proc.once('exit', earlyExit);
    function onData() {
      const secret = /^demo consumer secret: (\S+)$/m.exec(stdout);
      if (!secret) return;
      clearTimeout(timer);
      proc.stdout.off('data', onData);
      proc.off('exit', earlyExit);
      const localUrl = /^Marquee service listening on (\S+)$/m.exec(stdout)?.[1] ?? '';
      resolve({
        proc,
        localUrl,
        baseUrl: /^base URL: (\S+)$/m.exec(stdout)?.[1] ?? localUrl,
        demo: { key: /^demo consumer key: (\S+)$/m.exec(stdout)?.[1] ?? '', secret: secret[1]! },
        readyMs: Math.round(performance.now() - started),
        output,
        async stop(signal) {
          proc.kill(signal);
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<never>((_, rej) => {
            timer = setTimeout(
              () => rej(new Error(`no exit ${STOP_TIMEOUT_MS} ms after ${signal}:\n${output()}`)),
              STOP_TIMEOUT_MS,
            );
          });
          try {
            return await Promise.race([closed, timeout]);
          } finally {
            clearTimeout(timer);
          }
        },
      });
    }
    proc.stdout.on('data', onData);
  });
}

/** An operator command (`npm run service -- … <command>`) on a data folder, from the launcher's bundle: what it printed. */
export async function operator(dataDir: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [...LAUNCHER_ENTRY, ...args, '--data-dir', dataDir], {
    cwd: ROOT,
    env: childEnv({}),
  });
  return stdout;
}
