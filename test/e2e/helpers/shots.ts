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
    // Reduced motion: colours land at once (the app's transitions take 0 ms), not 150 ms later.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    // Let the theme's styles apply before the picture (one frame is enough).
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const path = join(shotsDir(), `${name}-${colorScheme}.png`);
    await page.screenshot({ path });
    written.push(path);
  }
  // Light first, motion second: the other way round, every colour would glide back from dark for
  // 150 ms, under whatever the test checks next (an axe run saw dark surfaces under light text).
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await page.emulateMedia({ reducedMotion: null });
  return written;
}
