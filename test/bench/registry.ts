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

/**
 * The scenarios named by `only` (files are named by their id: s1-title-get.ts is S1, soak.ts SOAK),
 * or, when `only` is empty or names one no file's name gives, every scenario file in the folder, in
 * id order (a new file is picked up without a list to edit). Importing only the chosen files spares
 * a run of a few scenarios the others' modules (Chromium's driver among them).
 */
export async function loadScenarios(only: string[] = []): Promise<BenchScenario[]> {
  const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const named = files.filter((f) => only.includes(idInName(f)));
  const chosen = await scenariosIn(dir, named);
  if (only.length > 0 && only.every((id) => chosen.some((s) => s.id === id))) return chosen;
  return scenariosIn(dir, files);
}

/** The id a scenario file's name gives: what comes before its first '-' (or '.ts'), in capitals. */
function idInName(file: string): string {
  return file.replace(/\.ts$/, '').split('-')[0]!.toUpperCase();
}

async function scenariosIn(dir: string, files: string[]): Promise<BenchScenario[]> {
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
