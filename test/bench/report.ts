import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { ScenarioResult } from './scenarios.ts';
import type { MicroResult } from './storage.ts';

export interface Report {
  date: string;
  command: string;
  titles: number;
  loadSeconds: number;
  connections: number;
  durationMs: number;
  rounds: number;
  signMicros: number;
  /** 1-minute load average when the run ended. */
  loadAverage: number;
  http: Array<ScenarioResult & { serverCpu: number; otherCpu: number; note: string }>;
  storage: MicroResult[];
}

export function machine(): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  const gib = (os.totalmem() / 2 ** 30).toFixed(0);
  return `${cpus.length} cores (${model}), ${gib} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** CPU time all cores have spent busy since boot, in ms (to see what else ran during a window). */
export function machineBusyMs(): number {
  return os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => x.toFixed(2);
const pct = (x: number) => `${Math.round(x * 100)}%`;

function statusText(r: ScenarioResult): string {
  const codes = Object.entries(r.statuses).map(([code, count]) => (Object.keys(r.statuses).length > 1 ? `${code}×${count}` : code));
  return codes.join(' ') + (r.errors ? ` (+${r.errors} errors)` : '') + (r.contentEncoding ? ` ${r.contentEncoding}` : '');
}

/** The results as markdown: the HTTP table, the storage table, and how they were taken. */
export function markdown(r: Report): string {
  const lines = [
    `- Measured ${r.date} on ${machine()}.`,
    `- Command: \`${r.command}\`. Catalog: ${n0(r.titles)} titles in a fresh SQLite file (loaded in ${r.loadSeconds.toFixed(1)} s).`,
    `- HTTP: ${r.connections} keep-alive connections, ${(r.durationMs / 1000).toFixed(1)} s per row after a warm-up; ` +
      `client signing cost ≈ ${r.signMicros.toFixed(0)} µs of client CPU per request (oauth-1.0a, fresh nonce each time).`,
    `- Each row was measured ${r.rounds === 1 ? 'once' : `${r.rounds} times; shown is the measurement the rest of the machine disturbed least`}. ` +
      `CPU columns are shares of one core; "other" is what other processes used meanwhile (load average ${r.loadAverage.toFixed(2)} at the end).`,
    '',
    '| Scenario | req/s | p50 ms | p99 ms | body bytes | status | server CPU | client CPU | other CPU |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|',
    ...r.http.map((h) => `| ${h.name} | ${n0(h.rps)} | ${ms(h.p50)} | ${ms(h.p99)} | ${n0(h.bytesPerResponse)} | ${statusText(h)} | ${pct(h.serverCpu)} | ${pct(h.clientCpu)} | ${pct(h.otherCpu)} |`),
    '',
    ...r.http.map((h) => `- *${h.name}*: ${h.note}`),
    '',
    '| Storage (in process) | ops/s | µs/op | other CPU | what |',
    '|---|---:|---:|---:|---|',
    ...r.storage.map((s) => `| ${s.name} | ${n0(s.opsPerSecond)} | ${s.microsPerOp.toFixed(1)} | ${pct(s.otherCpu)} | ${s.note} |`),
  ];
  return lines.join('\n');
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
