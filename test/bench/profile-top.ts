/**
 * `npx tsx test/bench/profile-top.ts FILE.cpuprofile [N]`: the N heaviest frames of a V8 CPU
 * profile (as `npm run bench -- --cpu-prof DIR` writes them) by self time (profile.ts, as the
 * bench logs them) and by inclusive time, as shares of the busy time (idle left out).
 */
import { readFileSync } from 'node:fs';
import { frameLabel, topSelfTime, type CpuProfile } from './profile.ts';

/** Each frame's share of the busy time spent in it or in what it called (a frame counted once per sample). */
function topInclusive(profile: CpuProfile, count: number): Array<{ frame: string; percent: number }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusiveUs = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const us = profile.timeDeltas[i + 1] ?? 0;
    busyUs += us;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = frameLabel(byId.get(at)!);
      if (seen.has(frame)) continue;
      seen.add(frame);
      inclusiveUs.set(frame, (inclusiveUs.get(frame) ?? 0) + us);
    }
  });
  return [...inclusiveUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, us]) => ({ frame, percent: (100 * us) / Math.max(1, busyUs) }));
}

const [file, n] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts FILE.cpuprofile [N]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const count = Number(n ?? 25);
const row = (percent: number, frame: string) => `  ${percent.toFixed(1).padStart(5)}%  ${frame}`;
console.log(
  [
    'self:',
    ...topSelfTime(profile, count).map((t) => row(t.percent, t.frame)),
    'inclusive:',
    ...topInclusive(profile, count).map((t) => row(t.percent, t.frame)),
  ].join('\n'),
);
