import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../service/store/db.ts';
import { running, startService } from '../helpers/service-process.ts';
import { soak } from '../soak/soak.ts';
import { soakAccounts } from '../soak/setup.ts';

const CONNECTIONS = 200;
/** The short version; `npm run soak` runs 60 s. */
const SECONDS = 6;
/** A service serving 200 connections stays well under this. */
const RSS_BOUND_MB = 768;

/** Issue 10, proof 6 (short): 200 concurrent connections of mixed reads and writes on a service process. */
describe('a short soak: 200 connections of mixed reads and writes', () => {
  afterAll(() => {
    for (const proc of running) proc.kill('SIGKILL');
  });

  it('answers every request without an error, with memory bounded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-soak-'));
    try {
      copyFileSync(inject('sqliteTemplate'), join(dir, 'marquee.sqlite'));
      const db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
      const accounts = await soakAccounts(db, 20, CONNECTIONS);
      await db.close();
      const svc = await startService(['--data-dir', dir, '--port', '0']);
      const result = await soak({ localUrl: svc.localUrl, baseUrl: svc.baseUrl, pid: svc.proc.pid!, ...accounts }, CONNECTIONS, SECONDS);
      await svc.stop('SIGTERM');
      console.log(`soak: ${JSON.stringify(result)}`);
      expect(result.errors).toEqual([]);
      expect(result.writes).toBeGreaterThan(0);
      expect(result.reads).toBeGreaterThan(result.writes);
      expect(result.rssPeakMb).toBeLessThan(RSS_BOUND_MB);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
