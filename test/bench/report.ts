import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchRow } from './registry.ts';

export function machine(): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  const gib = (os.totalmem() / 2 ** 30).toFixed(0);
  return `${cpus.length} cores (${model}), ${gib} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export interface RunInfo {
  date: string;
  command: string;
  minutes: number;
  /** 1-minute load average at the start and at the end (others share this machine). */
  loadStart: number;
  loadEnd: number;
  /** How the load client ran (context.ts describeSetup), when a row used it. */
  clients?: string | undefined;
}

const verdict = (met: boolean | undefined) => (met === undefined ? 'recorded' : met ? 'met' : '**not met**');

/** The run as markdown: how it was taken, then one table row per figure. */
export function markdown(rows: BenchRow[], run: RunInfo): string {
  return [
    `- Measured ${run.date} on ${machine()}; \`${run.command}\` took ${run.minutes.toFixed(1)} min.`,
    `- Load average ${run.loadStart.toFixed(2)} at the start, ${run.loadEnd.toFixed(2)} at the end (the machine is shared: ratios against the same-run baseline are the figures to read).`,
    ...(run.clients ? [`- Load client: ${run.clients}.`] : []),
    '',
    '| Scenario | Figure | Measured | Baseline (same run) | Ratio | Target | Result |',
    '|---|---|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.figure}${r.note ? ` — ${r.note}` : ''} | ${r.value} | ${r.baseline ?? ''} | ${r.ratio === undefined ? '' : `${Math.round(r.ratio * 100)}%`} | ${r.target} | ${verdict(r.met)} |`,
    ),
  ].join('\n');
}

/** A plain-text table for the terminal. */
export function table(rows: BenchRow[]): string {
  const cells = rows.map((r) => [
    r.scenario,
    r.value,
    r.baseline ?? '',
    r.ratio === undefined ? '' : `${Math.round(r.ratio * 100)}%`,
    r.target,
    verdict(r.met).replace(/\*/g, ''),
    r.figure,
  ]);
  const head = ['id', 'measured', 'baseline', 'ratio', 'target', 'result', 'figure'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  return [line(head), ...cells.map(line)].join('\n');
}

export const RESULTS_START = '<!-- bench:results:start -->';
export const RESULTS_END = '<!-- bench:results:end -->';

/** Replaces the generated block of docs/BENCHMARKS.md (between the markers), leaving the prose alone. */
export function writeResults(file: string, block: string): void {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(RESULTS_START);
  const end = text.indexOf(RESULTS_END);
  if (start < 0 || end < start) throw new Error(`${file} has no ${RESULTS_START} … ${RESULTS_END} block`);
  writeFileSync(file, text.slice(0, start + RESULTS_START.length) + '\n' + block + '\n' + text.slice(end));
}
