import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchBrowser } from '../../helpers/browser.ts';
import type { BenchScenario } from '../registry.ts';

/**
 * Benchmark C2 (not a test): the queue manager in headless Chromium with a 500-entry queue.
 * - first render: from mounting the screen (queue already in the query cache) to its first rows
 *   on screen and one frame painted; median and p95 of `runs` mounts after two warm-ups. Target < 150 ms.
 * - scrolling: the list scrolled at a steady 40 px a frame for `scrollMs`; frames per second and
 *   frames over 20 ms. Target ≥ 58 fps. Beside it, the same scroll over 500 static rows of plain
 *   HTML (baselineFps): on a loaded machine both fall, and the gap is the queue's own cost.
 * The fixture (c2-queue-fixture.mjs) renders QueueManager alone, built by esbuild for production.
 */
export interface C2Figures {
  name: 'C2 queue render';
  entries: number;
  firstRenderMs: { median: number; p95: number; runs: number };
  scroll: { fps: number; frames: number; seconds: number; longFrames: number };
  /** The same scroll over 500 static rows of plain HTML in the same browser: what the machine allows right now. */
  baselineFps: number;
  targets: { firstRenderMs: number; fps: number };
  met: { firstRender: boolean; fps: boolean };
}

export interface C2Options {
  runs?: number;
  scrollMs?: number;
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

async function buildFixture(dir: string): Promise<void> {
  await build({
    entryPoints: { fixture: join(HERE, 'c2-queue-fixture.mjs') },
    bundle: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    outdir: dir,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>C2</title><link rel="stylesheet" href="fixture.css"></head>' +
      '<body style="margin:0"><div id="root" style="height:800px;padding:16px;box-sizing:border-box"></div><script type="module" src="fixture.js"></script></body></html>',
  );
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').slice(1).split('?')[0]!;
    try {
      const body = readFileSync(join(dir, name.replace(/\.\.+/g, '')));
      res.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` }),
    ),
  );
}

/** 500 plain rows scrolled the same way, no script but the scroll loop. */
const BASELINE_PAGE =
  '<!doctype html><html><body style="margin:0"><div id="s" style="height:768px;overflow:auto">' +
  Array.from(
    { length: 500 },
    (_, i) =>
      `<div style="height:55px;border-bottom:1px solid #ddd;font:14px system-ui;padding:0 12px">${i + 1}. Title ${i + 1}</div>`,
  ).join('') +
  '</div></body></html>';
const BASELINE_SCROLL = `(async (ms) => {
  const box = document.getElementById('s');
  let frames = 0, down = true;
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (box.scrollTop >= box.scrollHeight - box.clientHeight) down = false;
    if (box.scrollTop <= 0) down = true;
    box.scrollTop += down ? 40 : -40;
    await new Promise((r) => requestAnimationFrame(r));
    frames++;
  }
  return frames / ((performance.now() - started) / 1000);
})`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;

export async function runC2QueueRender(options: C2Options = {}): Promise<C2Figures> {
  const runs = options.runs ?? 15;
  const scrollMs = options.scrollMs ?? 4000;
  const dir = mkdtempSync(join(tmpdir(), 'marquee-c2-'));
  const browser = await launchBrowser();
  let server: Server | undefined;
  try {
    await buildFixture(dir);
    const served = await serve(dir);
    server = served.server;
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(served.url);
    await page.waitForFunction('window.__c2 !== undefined');
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const ms = await page
        .evaluate<number>('window.__c2.mount()')
        .catch((error: unknown) =>
          Promise.reject(new Error(`${String(error)}; the page said: ${pageErrors.join(' | ')}`)),
        );
      if (i >= 2) times.push(ms);
      if (i < runs + 1) await page.evaluate('window.__c2.unmount()');
    }
    times.sort((a, b) => a - b);
    const scroll = await page.evaluate<{
      frames: number;
      seconds: number;
      longFrames: number;
    }>(`window.__c2.scroll(${scrollMs}, 40)`);
    const fps = round(scroll.frames / scroll.seconds);
    await page.setContent(BASELINE_PAGE);
    const baselineFps = round(await page.evaluate<number>(`${BASELINE_SCROLL}(${scrollMs})`));
    const median = round(percentile(times, 0.5));
    return {
      name: 'C2 queue render',
      entries: 500,
      firstRenderMs: { median, p95: round(percentile(times, 0.95)), runs },
      scroll: { fps, frames: scroll.frames, seconds: round(scroll.seconds), longFrames: scroll.longFrames },
      baselineFps,
      targets: { firstRenderMs: 150, fps: 58 },
      met: { firstRender: median < 150, fps: fps >= 58 },
    };
  } finally {
    server?.close();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** C2 in `npm run bench`: three rows, first render, scrolling, and the plain-HTML scroll it is compared with. */
export const scenario: BenchScenario = {
  id: 'C2',
  title: 'queue manager, 500 entries, headless Chromium',
  async run(ctx) {
    ctx.log('  building the C2 fixture and measuring in Chromium…');
    const f = await runC2QueueRender();
    const fixture =
      'the queue manager alone in a fixture page (production bundle, stubbed core), not the whole app — C5 scrolls the real app';
    const note = `${fixture}; ${f.firstRenderMs.runs} mounts after 2 warm-ups; queue already in the query cache`;
    return [
      {
        scenario: 'C2',
        figure: 'first render of a 500-entry queue (median; p95)',
        value: `${f.firstRenderMs.median} ms; ${f.firstRenderMs.p95} ms`,
        target: '< 150 ms',
        met: f.met.firstRender,
        note,
      },
      {
        scenario: 'C2',
        figure: 'scrolling the queue, frames per second',
        value: `${f.scroll.fps} fps`,
        baseline: `${f.baselineFps} fps`,
        ratio: f.baselineFps > 0 ? f.scroll.fps / f.baselineFps : undefined,
        target: '≥ 58 fps',
        met: f.met.fps,
        note: `${fixture}; ${f.scroll.longFrames} of ${f.scroll.frames} frames over 20 ms; baseline: 500 static rows scrolled the same way`,
      },
    ];
  },
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(await runC2QueueRender(), null, 2));
}
