import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from '../load.ts';
import type { BenchScenario } from '../registry.ts';
import { seconds } from './figures.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where scripts/service.mjs caches its bundle, one folder per build. */
const SERVICE_BUILDS = join(ROOT, 'node_modules', '.cache', 'marquee');
const STOP_MS = 15_000;
const START_LIMIT_MS = 180_000;

/** The launch line the web host prints: its origin and the per-launch token. */
function launch(output: string): { url: string; token: string } | null {
  const m = /Marquee is running at (http:\/\/[^/\s]+)\/#token=([\w-]+)/.exec(output);
  return m ? { url: m[1]!, token: m[2]! } : null;
}

/** A search over the web host's API with its token: the demo catalog's titles, or null (not yet). */
async function demoTitles(url: string, token: string): Promise<string[] | null> {
  const res = await fetch(`${url}/api/catalog.search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ term: 'love' }),
  }).catch(() => null);
  if (!res || res.status !== 200) return null;
  const result = (await res.json()) as { ok: boolean; value?: { items: Array<{ title: string }> } };
  return result.ok && result.value && result.value.items.length > 0 ? result.value.items.map((t) => t.title) : null;
}

/** Resolves with the launch line's origin and token once printed; rejects when the process exits first. */
function launched(child: ChildProcess, out: { text: string }): Promise<{ url: string; token: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no launch line after ${START_LIMIT_MS} ms: ${out.text.slice(-2000)}`)),
      START_LIMIT_MS,
    );
    const onData = (chunk: Buffer) => {
      out.text += chunk.toString();
      const found = launch(out.text);
      if (!found) return;
      clearTimeout(timer);
      resolve(found);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out.text += chunk.toString()));
    child.once(
      'exit',
      (code) => (
        clearTimeout(timer),
        reject(new Error(`npm run start:web exited (${code}) before it ran: ${out.text.slice(-2000)}`))
      ),
    );
  });
}

/** What a start had to build (a source changed since the last start: not a warm start then): what it said, and a new service bundle. */
function rebuilt(output: string, serviceBuildsBefore: Set<string>): string[] {
  const said = [...output.matchAll(/^Building the ([\w ]+)…$/gm)].map((m) => m[1]!);
  const service = serviceBuilds().some((b) => !serviceBuildsBefore.has(b)) ? ['service bundle'] : [];
  return [...said, ...service];
}

function serviceBuilds(): string[] {
  return existsSync(SERVICE_BUILDS) ? readdirSync(SERVICE_BUILDS) : [];
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the whole process tree of a start (npm, the web host, the embedded service): SIGTERM, then SIGKILL. */
async function stopTree(child: ChildProcess): Promise<void> {
  const pgid = child.pid!;
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  const deadline = performance.now() + STOP_MS;
  while (groupAlive(pgid) && performance.now() < deadline) await sleep(50);
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  while (groupAlive(pgid)) await sleep(50);
}

/**
 * `npm run start:web` in its own process group, with private app data and no browser; resolves
 * with the seconds until an API call with the launch token answers with demo catalog titles.
 */
async function timedStart(home: string): Promise<{ seconds: number; titles: string[]; rebuilt: string[] }> {
  const before = new Set(serviceBuilds());
  const started = performance.now();
  const child = spawn('npm', ['run', 'start:web'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOME: home,
      MARQUEE_USER_DATA_DIR: join(home, 'Marquee'),
      MARQUEE_NO_BROWSER: '1',
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    },
  });
  const out = { text: '' };
  try {
    const { url, token } = await launched(child, out);
    for (;;) {
      const titles = await demoTitles(url, token);
      if (titles) return { seconds: (performance.now() - started) / 1000, titles, rebuilt: rebuilt(out.text, before) };
      if (performance.now() - started > START_LIMIT_MS) throw new Error('the API never answered with demo titles');
      await sleep(20);
    }
  } finally {
    await stopTree(child);
  }
}

const WARM_STARTS = 3;

/**
 * C4: the web host's warm start (renderer built, app data present): a first start to warm, then
 * three more; the median is the figure (others' work on the machine makes single starts noisy).
 */
export const scenario: BenchScenario = {
  id: 'C4',
  title: '`npm run start:web` until the API answers with the demo catalog',
  async run(ctx) {
    const home = mkdtempSync(join(tmpdir(), 'marquee-bench-web-'));
    try {
      const first = await timedStart(home);
      ctx.log(
        `  first start (builds what is stale${first.rebuilt.length ? `: ${first.rebuilt.join(', ')}` : ''}, loads the demo catalog): ${seconds(first.seconds)}`,
      );
      const warm = [];
      for (let i = 0; i < WARM_STARTS; i++) warm.push(await timedStart(home));
      const times = warm.map((w) => w.seconds);
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
      const builds = warm.flatMap((w) => w.rebuilt);
      if (builds.length) ctx.log(`  warm starts had to rebuild: ${builds.join(', ')} (sources changed meanwhile)`);
      return [
        {
          scenario: 'C4',
          figure: `\`npm run start:web\` warm, until a search with the launch token answers (“${warm[0]!.titles[0]}”, …): median of ${times.map(seconds).join(', ')}; first start ${seconds(first.seconds)}`,
          value: seconds(median),
          target: '≤ 2 s warm',
          met: median <= 2,
          ...(builds.length ? { note: `warm starts rebuilt (sources changed meanwhile): ${builds.join(', ')}` } : {}),
        },
      ];
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
};
