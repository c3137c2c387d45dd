import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchContext } from './context.ts';

/** One line of the report: a measured figure against its target. */
export interface BenchRow {
  scenario: string;
  /** What was measured, e.g. "signed title GET, req/s". */
  figure: string;
  /** The measured value as shown (with its unit). */
  value: string;
  /** The same-run baseline it is compared with, when there is one. */
  baseline?: string;
  /** value / baseline, when both are rates. */
  ratio?: number | undefined;
  target: string;
  /** undefined: recorded, no pass/fail (a goal only). */
  met: boolean | undefined;
  note?: string | undefined;
}

/** A benchmark scenario: one file under test/bench/scenarios/ exporting `scenario`. */
export interface BenchScenario {
  /** S1…S8, C1…C4, SOAK: the numbering. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/** Every scenario file in the folder, in id order (a new file is picked up without a list to edit). */
export async function loadScenarios(): Promise<BenchScenario[]> {
  const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const out: BenchScenario[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(`${dir}${file}`).href)) as { scenario?: BenchScenario };
    if (mod.scenario) out.push(mod.scenario);
  }
  return out.sort((a, b) => order(a.id) - order(b.id));
}

/** S1…S8, then C1…C4, then SOAK (the longest) last. */
function order(id: string): number {
  if (id === 'SOAK') return 1000;
  return (id.startsWith('C') ? 100 : 0) + Number(id.slice(1));
}
