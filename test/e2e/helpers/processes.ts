import { execFileSync, type ChildProcess } from 'node:child_process';

/** The pids of every process below `pid` (Linux /proc via ps). */
export function descendants(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(pp, [...(children.get(pp) ?? []), p]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Collects a child's output and waits for lines in it: readiness is what the process prints,
 * never a guess with a sleep.
 */
export class Output {
  text = '';
  constructor(
    private readonly proc: ChildProcess,
    private readonly name: string,
  ) {
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => (this.text += c));
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (this.text += c));
  }

  /** The first match of `re` in the output after `from`, polling while the process runs. */
  async waitFor(re: RegExp, timeoutMs = 30_000, from = 0): Promise<RegExpExecArray> {
    const started = Date.now();
    for (;;) {
      const m = re.exec(this.text.slice(from));
      if (m) return m;
      if (this.proc.exitCode !== null) throw new Error(`${this.name} exited early:\n${this.text}`);
      if (Date.now() - started > timeoutMs)
        throw new Error(`${this.name}: no ${re} after ${timeoutMs} ms:\n${this.text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** SIGTERM to a process, then its exit code once it and everything it started are gone (SIGKILL after 15 s). */
export async function stopTree(proc: ChildProcess): Promise<{ code: number | null; left: number[] }> {
  if (proc.exitCode !== null || proc.signalCode !== null) return { code: proc.exitCode, left: [] };
  const tree = descendants(proc.pid!);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
  // Grandchildren may take a moment after their parent exits.
  for (let i = 0; i < 50 && tree.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  const left = tree.filter(alive);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  if (proc.exitCode === null) proc.kill('SIGKILL');
  return { code: code === 'timeout' ? null : code, left };
}
