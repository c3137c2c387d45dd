import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv } from '../helpers/service-process.ts';

/**
 * A built file run by Node in the folder shaped like the installed app. `--preserve-symlinks`
 * makes the linked packages' own imports resolve inside that folder too, not in the checkout's
 * node_modules behind the links.
 */
export interface AppProcess {
  proc: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects with the output if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM, then resolves with the exit code once every output is read (null when it had to be killed). */
  stop(): Promise<number | null>;
}

const WAIT_LIMIT_MS = 90_000;
const STOP_LIMIT_MS = 10_000;

export function runBuilt(appDir: string, file: string, args: string[], env: Record<string, string> = {}): AppProcess {
  const proc = spawn(process.execPath, ['--preserve-symlinks', file, ...args], {
    cwd: appDir,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const output = () => `${stdout}\n${stderr}`;

  function waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) finish(() => resolve(match));
      };
      const exited = () => finish(() => reject(new Error(`${file} exited before printing ${pattern}:\n${output()}`)));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${file} did not print ${pattern} in ${WAIT_LIMIT_MS} ms:\n${output()}`))),
        WAIT_LIMIT_MS,
      );
      function finish(settle: () => void) {
        clearTimeout(timer);
        proc.stdout.off('data', check);
        proc.off('close', exited);
        settle();
      }
      proc.stdout.on('data', check);
      proc.once('close', exited);
      check();
      if (proc.exitCode !== null || proc.signalCode !== null) void closed.then(exited);
    });
  }

  /** SIGTERM lets the web host stop its embedded service too; SIGKILL only if it has not exited in time. */
  async function stop(): Promise<number | null> {
    if (proc.exitCode !== null || proc.signalCode !== null) return closed;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_LIMIT_MS);
    try {
      return await closed;
    } finally {
      clearTimeout(timer);
    }
  }

  return { proc, output, waitFor, stop };
}
