import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright';

/**
 * A real headless Chromium for the end-to-end tests: CHROMIUM_PATH when set, else the one
 * @sparticuz/chromium unpacks from npm (so CI needs nothing installed), and only if that fails a
 * system /usr/bin/chromium. Flags keep it off the network: no update checks, sync or first-run pings.
 */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--no-default-browser-check'];
/** @sparticuz/chromium's Lambda flags that would switch off what the tests check (same-origin policy, mixed content). */
const WEAKENING_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);
/** …and one that makes a browser with several contexts fragile (meant for a one-page Lambda). */
const FRAGILE_FLAGS = new Set(['--single-process']);

export async function launchBrowser(): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return chromium.launch({ executablePath: fromEnv, headless: true, args: QUIET_FLAGS });
  let sparticuzError: unknown;
  try {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    const executablePath = await sparticuz.executablePath();
    return await chromium.launch({ executablePath, headless: true, args: [...sparticuz.args.filter((a) => !WEAKENING_FLAGS.has(a) && !FRAGILE_FLAGS.has(a)), ...QUIET_FLAGS] });
  } catch (error) {
    sparticuzError = error;
  }
  for (const path of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(path)) return chromium.launch({ executablePath: path, headless: true, args: QUIET_FLAGS });
  }
  throw new Error(`No Chromium: set CHROMIUM_PATH (@sparticuz/chromium failed: ${sparticuzError instanceof Error ? sparticuzError.message : String(sparticuzError)})`);
}
