import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright';
import type { RunningApp } from '../../e2e/helpers/app.ts';
import { signIn } from '../../e2e/helpers/page.ts';
import { Output, stopTree } from '../../e2e/helpers/processes.ts';

/**
 * C5's app (not a scenario: exports no `scenario`): `node scripts/start.mjs --web` as a person starts
 * it, with its embedded service on a fresh data folder (the demo catalog, real generated box art),
 * signed in through the service's own page in Chromium, and the instant queue filled through the
 * web host's API.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const START_MS = 240_000;

export interface C5App {
  page: Page;
  /** Calls one operation of the web host's API with the launch token. */
  api<T>(name: string, input: unknown): Promise<T>;
  /** `count` movies that stream now, as title refs of the embedded service. */
  streamingMovies(count: number): string[];
  close(): Promise<void>;
}

export async function startC5App(browser: Browser, viewport: { width: number; height: number }): Promise<C5App> {
  const home = mkdtempSync(join(tmpdir(), 'marquee-bench-c5-'));
  const userDataDir = join(home, 'Marquee');
  const proc: ChildProcess = spawn(process.execPath, ['scripts/start.mjs', '--web'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOME: home,
      MARQUEE_USER_DATA_DIR: userDataDir,
      MARQUEE_NO_BROWSER: '1',
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    },
  });
  const output = new Output(proc, 'start.mjs --web');
  const close = async () => {
    await stopTree(proc);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const launchUrl = (await output.waitFor(/^Marquee is running at (\S+)$/m, START_MS))[1]!;
    const serviceUrl = (await output.waitFor(/^Embedded service listening on (http:\/\/\S+)/m))[1]!;
    const sign = await output.waitFor(/^Demo sign-in: login (\S+), password (\S+)$/m);
    const app = { launchUrl, output, demo: { login: sign[1]!, password: sign[2]! } } as unknown as RunningApp;
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(launchUrl);
    await page.locator('[data-app-ready]').first().waitFor({ timeout: 60_000 });
    await signIn({ page, context, problems: [], close: () => context.close() }, app);
    const hostUrl = new URL(launchUrl).origin;
    const token = /#token=([\w-]+)/.exec(launchUrl)![1]!;
    return {
      page,
      async api<T>(name: string, input: unknown) {
        const res = await fetch(`${hostUrl}/api/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(input),
        });
        const result = (await res.json()) as { ok: boolean; value?: T; error?: { message: string } };
        if (!result.ok) throw new Error(`${name}: ${result.error?.message}`);
        return result.value as T;
      },
      streamingMovies: (count) =>
        streamingMovies(join(userDataDir, 'service', 'marquee.sqlite'), new URL(serviceUrl).origin, count),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Movies the embedded service streams now and for a month more, read from its own database. */
function streamingMovies(dbPath: string, origin: string, count: number): string[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const now = Math.floor(Date.now() / 1000);
    const rows = db
      .prepare(
        `SELECT DISTINCT t.id FROM titles t JOIN availability a ON a.title_id = t.id
         WHERE t.type = 'movie' AND a.format = 'instant' AND a.available_from < ? AND (a.available_until IS NULL OR a.available_until > ?)
         ORDER BY t.id LIMIT ?`,
      )
      .all(now, now + 31 * 86400, count) as Array<{ id: number }>;
    if (rows.length < count) throw new Error(`the demo catalog streams only ${rows.length} movies; C5 needs ${count}`);
    return rows.map((r) => `${origin}/catalog/titles/movies/${r.id}`);
  } finally {
    db.close();
  }
}
