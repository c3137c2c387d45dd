import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { inEachScheme } from './schemes.ts';

/**
 * Screenshots go to one folder per test run: MARQUEE_SHOTS_DIR when set, else a folder named by
 * the vitest run (the parent of every test file's worker), printed the first time each file writes.
 */
let dir: string | null = null;

export function shotsDir(): string {
  if (dir) return dir;
  dir = process.env.MARQUEE_SHOTS_DIR ?? join(tmpdir(), `marquee-e2e-shots-${process.ppid}`);
  mkdirSync(dir, { recursive: true });
  console.log(`Screenshots: ${dir}`);
  return dir;
}

/** Writes `<name>-light.png` and `<name>-dark.png` (the page's colour scheme emulated), and leaves it light. */
export function shot(page: Page, name: string): Promise<string[]> {
  return inEachScheme(page, async (scheme) => {
    const path = join(shotsDir(), `${name}-${scheme}.png`);
    await page.screenshot({ path });
    return path;
  });
}
