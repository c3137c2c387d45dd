import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUrl } from '../helpers/oauth-client.ts';
import {
  childEnv,
  LAUNCHER_ENTRY,
  ROOT,
  running,
  startService,
  type RunningService,
} from '../helpers/service-process.ts';
import { copyDemoStore } from '../helpers/service.ts';

const run = promisify(execFile);

/**
 * `npm run service -- catalog availability <id> --from … --until …` against the data folder of a
 * service that keeps running: the title's window read back over signed HTTP is the new one, under
 * a new ETag (a revalidation with the old one is answered in full, not 304), without a restart.
 */
describe('catalog availability, the operator command', () => {
  let dataDir: string;
  let svc: RunningService;
  const TITLE = 60_000_003;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marquee-availability-'));
    copyDemoStore(dataDir);
    svc = await startService(['--data-dir', dataDir, '--port', '0'], {}, LAUNCHER_ENTRY);
  }, 120_000);
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const operator = (args: string[]) =>
    run(process.execPath, [...LAUNCHER_ENTRY, '--data-dir', dataDir, 'catalog', 'availability', ...args], {
      cwd: ROOT,
      env: childEnv({}),
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  async function formats(id: number, etag?: string): Promise<{ status: number; etag: string; windows: string[] }> {
    const url = `${svc.localUrl}/catalog/titles/movies/${id}/format_availability`;
    const res = await fetch(signedUrl(svc.demo, 'GET', url), { headers: etag ? { 'if-none-match': etag } : {} });
    const body = await res.text();
    const windows = [
      ...body.matchAll(
        /<availability available_from="(\d+)"(?: available_until="(\d+)")?>\s*<category[^>]*term="([^"]+)"/g,
      ),
    ].map((m) => `${m[3]} ${m[1]}-${m[2] ?? ''}`);
    return { status: res.status, etag: res.headers.get('etag') ?? '', windows };
  }

  it('sets the instant window; the running service answers it under a new ETag', async () => {
    const before = await formats(TITLE);
    expect(before.status).toBe(200);
    expect((await formats(TITLE, before.etag)).status).toBe(304);
    const done = await operator([String(TITLE), '--from', '2026-01-01', '--until', '2031-06-30T12:00:00Z']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(
      /\(60000003\): instant from 2026-01-01T00:00:00Z until 2031-06-30T12:00:00Z; catalog generation \d+/,
    );
    const from = Date.UTC(2026, 0, 1) / 1000;
    const until = Date.UTC(2031, 5, 30, 12) / 1000;
    // The running service rereads the catalog generation within a second: poll, never sleep.
    await expect
      .poll(async () => (await formats(TITLE, before.etag)).status, { timeout: 10_000, interval: 200 })
      .toBe(200);
    const after = await formats(TITLE, before.etag);
    expect(after.etag).not.toBe(before.etag);
    expect(after.windows).toContain(`instant ${from}-${until}`);
  });

  it('--format disc sets both disc formats; --until never leaves the window open', async () => {
    const done = await operator([String(TITLE), '--format', 'disc', '--from', 'now', '--until', 'never']);
    expect(done.code, done.stderr).toBe(0);
    await expect
      .poll(async () => (await formats(TITLE)).windows.filter((w) => /^(DVD|Blu-ray) \d+-$/.test(w)).length, {
        timeout: 10_000,
        interval: 200,
      })
      .toBe(2);
  });

  it('refuses bad input in words, changing nothing', async () => {
    const before = await formats(TITLE);
    const cases: Array<[string[], RegExp]> = [
      [[String(TITLE), '--from', '2026-01-01'], /usage: npm run service -- catalog availability <title id>/],
      [['abc', '--from', 'now', '--until', 'never'], /title id must be a positive whole number/],
      [['999999999', '--from', 'now', '--until', 'never'], /no title with id 999999999/],
      [[String(TITLE), '--from', 'tomorrow', '--until', 'never'], /--from must be a date such as 2026-12-31/],
      [[String(TITLE), '--from', '2026-02-30x', '--until', 'never'], /--from must be a date/],
      [
        [String(TITLE), '--from', '2027-01-01', '--until', '2026-01-01'],
        /--until \(2026-01-01T00:00:00Z\) must be after --from/,
      ],
      [
        [String(TITLE), '--format', 'vhs', '--from', 'now', '--until', 'never'],
        /--format must be instant, disc, DVD or Blu-ray/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await operator(args);
      expect(r.code, args.join(' ')).toBeGreaterThan(0);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect((await formats(TITLE, before.etag)).status).toBe(304);
  });
});
