import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';

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
export async function shot(page: Page, name: string): Promise<string[]> {
  const written: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Let the theme's styles apply before the picture (one frame is enough).
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const path = join(shotsDir(), `${name}-${colorScheme}.png`);
    await page.screenshot({ path });
    written.push(path);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return written;
}
