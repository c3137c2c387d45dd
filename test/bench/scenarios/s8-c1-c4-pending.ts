import type { BenchScenario } from '../registry.ts';

/**
 * Scenarios of issue 9 that this suite does not measure yet. They stay in the report as rows that
 * say so (never a silent gap); each becomes its own file when it is written.
 */
export const scenario: BenchScenario = {
  id: 'S8',
  title: 'not measured yet: S8 (S1–S3 on PostgreSQL), C1 (app core browse session), C4 (start:web warm)',
  async run() {
    const pending = (id: string, figure: string, target: string) => ({ scenario: id, figure, value: 'not measured', target, met: undefined });
    return [
      pending('S8', 'S1–S3 on embedded PostgreSQL', 'same targets as S1–S3 (goal)'),
      pending('C1', 'app core browse session, second pass: share of 304s; requests per title view', '≥ 80% 304; exactly 1'),
      pending('C4', '`npm run start:web` until the API answers with the demo catalog', '≤ 2 s warm'),
    ];
  },
};
