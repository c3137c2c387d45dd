/**
 * `npx tsx test/bench/profile-top.ts FILE.cpuprofile [N]`: the N heaviest frames of a V8 CPU
 * profile (as `npm run bench -- --cpu-prof DIR` writes them) by self time and by inclusive time, as shares of the
 * busy samples (idle and the profiler's own "(program)" left out of the total).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
}

const IDLE = new Set(['(idle)', '(program)']);

function frameName(n: Node): string {
  const f = n.callFrame;
  const file = f.url.replace(/^.*\/(node_modules\/)?/, '$1').replace(/^file:\/\//, '');
  return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
}

function top(profile: Profile, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id)!;
    if (IDLE.has(node.callFrame.functionName)) continue;
    busy++;
    self.set(frameName(node), (self.get(frameName(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    }
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, n]) => `  ${((100 * n) / busy).toFixed(1).padStart(5)}%  ${name}`);
  return [`busy samples: ${busy}`, 'self:', ...rows(self), 'inclusive:', ...rows(inclusive)];
}

const [file, n] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [N]');
console.log(top(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(n ?? 25)).join('\n'));
