import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright';

/**
 * A real headless Chromium for the end-to-end tests: CHROMIUM_PATH when set, else the one
 * @sparticuz/chromium unpacks from npm (so CI needs nothing installed), and only if that fails a
 * system /usr/bin/chromium. Flags keep it off the network: no update checks, sync or first-run pings.
 */
const QUIET_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--no-default-browser-check',
];
/** @sparticuz/chromium's emulated GPU (SwiftShader), left out when drawing in software. */
const EMULATED_GPU_FLAGS = new Set([
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
]);
/** @sparticuz/chromium's Lambda flags that would switch off what the tests check (same-origin policy, mixed content). */
const WEAKENING_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);
/** …and one that makes a browser with several contexts fragile (meant for a one-page Lambda). */
const FRAGILE_FLAGS = new Set(['--single-process']);

export interface LaunchOptions {
  /**
   * Pages drawn by Skia on the CPU instead of through an emulated GPU: half the CPU of an e2e file
   * (the app draws no WebGL). The bench keeps the default its recorded numbers were measured with.
   */
  softwareDrawing?: boolean;
}

/** @sparticuz/chromium's binary (unpacked into the temp folder on first use) and its launch flags. */
async function sparticuzChromium(): Promise<{ executablePath: string; args: string[] }> {
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return { executablePath: await sparticuz.executablePath(), args: sparticuz.args };
}

/**
 * Unpacks @sparticuz/chromium's browser unless CHROMIUM_PATH names one. Run once before test files
 * start: the package writes the binary in place and answers "already there" as soon as the file
 * exists, so files launching together on a fresh machine would start a half-written binary (spawn
 * ETXTBSY). A failure is left to launchBrowser, which reports why and tries a system Chromium.
 */
export async function unpackChromium(): Promise<void> {
  if (!process.env.CHROMIUM_PATH) await sparticuzChromium().catch(() => undefined);
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const drawing = options.softwareDrawing ? ['--disable-gpu'] : [];
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return chromium.launch({ executablePath: fromEnv, headless: true, args: [...QUIET_FLAGS, ...drawing] });
  let sparticuzError: unknown;
  try {
    const { executablePath, args } = await sparticuzChromium();
    const kept = args.filter(
      (a) =>
        !WEAKENING_FLAGS.has(a) && !FRAGILE_FLAGS.has(a) && !(options.softwareDrawing && EMULATED_GPU_FLAGS.has(a)),
    );
    return await chromium.launch({ executablePath, headless: true, args: [...kept, ...QUIET_FLAGS, ...drawing] });
  } catch (error) {
    sparticuzError = error;
  }
  for (const path of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(path))
      return chromium.launch({ executablePath: path, headless: true, args: [...QUIET_FLAGS, ...drawing] });
  }
  throw new Error(
    `No Chromium: set CHROMIUM_PATH (@sparticuz/chromium failed: ${sparticuzError instanceof Error ? sparticuzError.message : String(sparticuzError)})`,
  );
}
