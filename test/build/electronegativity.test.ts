import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/service-process.ts';
import { REVIEWED_FINDINGS, type ReviewedFinding } from './electronegativity-reviewed.ts';

/**
 * Doyensec's electronegativity (Electron misconfigurations and anti-patterns) over electron/: every
 * finding is either fixed or in the reviewed list with its reason.
 */

interface Finding {
  id: string;
  file: string;
  sample?: string;
  description: string;
  location: { line: number; column: number };
}
type Electronegativity = (
  options: Record<string, unknown>,
  forCli: boolean,
) => Promise<{ issues: Finding[]; errors: { file: string; message: string }[] }>;

const require = createRequire(import.meta.url);
let findings: Finding[];
let parseErrors: { file: string; message: string }[];

beforeAll(async () => {
  const module = require('@doyensec/electronegativity') as { default?: Electronegativity } & Electronegativity;
  const run = module.default ?? module;
  const result = await run(
    {
      input: join(ROOT, 'electron'),
      isRelative: true,
      // The version installed, so the checks apply Electron 45's defaults, not those of "v0.1.0".
      electronVersionOverride: (require('electron/package.json') as { version: string }).version,
      // Asks GitHub for Electron's release notes: the network, and a dependency audit, not a code check.
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
    },
    false,
  );
  findings = result.issues;
  parseErrors = result.errors;
}, 60_000);

const matches = (finding: Finding, reviewed: ReviewedFinding) =>
  finding.id === reviewed.id && finding.file === reviewed.file && finding.sample?.trim() === reviewed.sample;
const describeFinding = (f: Finding) =>
  `${f.id} at ${f.file}:${f.location.line}:${f.location.column} (${f.sample?.trim() ?? 'global'}): ${f.description}`;

test('reads every file under electron/', () => {
  expect(parseErrors).toEqual([]);
});

test('every finding is fixed or reviewed with a reason', () => {
  const unreviewed = findings.filter((f) => !REVIEWED_FINDINGS.some((r) => matches(f, r)));
  expect(unreviewed.map(describeFinding)).toEqual([]);
});

test('every reviewed finding still occurs (the list holds no stale entries)', () => {
  const stale = REVIEWED_FINDINGS.filter((r) => !findings.some((f) => matches(f, r)));
  expect(stale.map((r) => `${r.id} at ${r.file}: ${r.sample ?? 'global'}`)).toEqual([]);
});

test.each(REVIEWED_FINDINGS.map((r) => [`${r.id} at ${r.file}`, r] as const))(
  'the reason for %s still holds',
  async (_name, reviewed) => {
    expect(reviewed.reason.length).toBeGreaterThan(20);
    expect(await reviewed.holds()).toBe(true);
  },
);
