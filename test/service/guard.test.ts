import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildServer } from '../../service/server.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import type { Consumer } from '../../service/model/consumer.ts';
import { openDb, type Db } from '../../service/store/db.ts';
import { dayWindow } from '../../service/store/quota.ts';
import { authHeader } from '../helpers/oauth-client.ts';
import { openTestDb, TEST_BASE } from '../helpers/service.ts';
import { parseXml } from '../helpers/xml.ts';

/** 2031-03-10T18:00:00Z: the services' clock in these tests (requests are signed at it). */
const T0 = Date.UTC(2031, 2, 10, 18, 0, 0) / 1000;
const PATH = '/catalog/titles?term=star';
const host = new URL(TEST_BASE).host;

async function node(db: Db, clock: { now: number }): Promise<FastifyInstance> {
  const app = buildServer({ db, baseUrl: TEST_BASE, now: () => clock.now });
  await app.ready();
  return app;
}

/** A signed GET with fixed OAuth parameters: sending the same headers twice is a replay. */
function signedHeaders(consumer: Consumer, timestamp: number): Record<string, string> {
  return { host, authorization: authHeader(consumer, 'GET', `http://${host}${PATH}`, {}, undefined, timestamp) };
}

async function send(
  app: FastifyInstance,
  headers: Record<string, string>,
): Promise<{ status: number; message?: string }> {
  const res = await app.inject({ method: 'GET', url: PATH, headers });
  return { status: res.statusCode, message: res.statusCode === 200 ? undefined : parseXml(res.body).status?.message };
}

describe('replays on SQLite, where nonces live in memory and are saved at a clean close', () => {
  let dir: string;
  let path: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'marquee-guard-'));
    path = join(dir, 'marquee.sqlite');
    copyFileSync(inject('sqliteTemplate'), path);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a replay right after a clean restart', async () => {
    const clock = { now: T0 };
    const db1 = await openDb({ sqlitePath: path });
    const consumer = await createConsumer(db1, { name: 'Restart', perSecond: 1000 });
    const request = signedHeaders(consumer, T0);
    const first = await node(db1, clock);
    expect((await send(first, request)).status).toBe(200);
    expect(await send(first, request)).toEqual({ status: 401, message: 'Nonce Already Used' });
    await first.close();
    await db1.close();

    const db2 = await openDb({ sqlitePath: path });
    const second = await node(db2, clock);
    try {
      expect(await send(second, request)).toEqual({ status: 401, message: 'Nonce Already Used' });
      expect((await send(second, signedHeaders(consumer, T0))).status).toBe(200);
    } finally {
      await second.close();
      await db2.close();
    }
  });

  it('after a stop that saved nothing, refuses requests signed up to the last second it accepted one in, and accepts later ones', async () => {
    const clock = { now: T0 + 100 };
    const db1 = await openDb({ sqlitePath: path });
    const consumer = await createConsumer(db1, { name: 'Crash', perSecond: 1000 });
    const first = await node(db1, clock);
    const request = signedHeaders(consumer, T0 + 99);
    expect((await send(first, request)).status).toBe(200);
    // The first process "crashes": it never flushes nor closes; a new one opens the same file.
    const db2 = await openDb({ sqlitePath: path });
    clock.now = T0 + 101;
    const second = await node(db2, clock);
    try {
      expect(await send(second, request)).toEqual({ status: 401, message: 'Timestamp Is Invalid' });
      // Signed in the second the stopped process last accepted a request in: the lost nonces may hold it.
      expect(await send(second, signedHeaders(consumer, T0 + 100))).toEqual({
        status: 401,
        message: 'Timestamp Is Invalid',
      });
      expect((await send(second, signedHeaders(consumer, T0 + 101))).status).toBe(200);
      expect((await send(second, signedHeaders(consumer, T0 + 101))).status).toBe(200);
    } finally {
      await second.close();
      await db2.close();
      await first.close();
      await db1.close();
    }
  });

  it('after a process killed before it accepted any request (a CLI command), accepts requests signed at once', async () => {
    // A store as its migrations leave it: no process has held its guard yet.
    const fresh = join(dir, 'fresh.sqlite');
    copyFileSync(inject('sqliteTemplate'), fresh);
    const raw = new SQLite(fresh);
    raw.prepare("DELETE FROM meta WHERE key LIKE 'guard_%'").run();
    raw.close();
    const clock = { now: Math.floor(Date.now() / 1000) };
    // The command opens the store (and its guard) and is killed: it never closes.
    const killed = await openDb({ sqlitePath: fresh });
    const db2 = await openDb({ sqlitePath: fresh });
    const consumer = await createConsumer(db2, { name: 'After a command', perSecond: 1000 });
    const app = await node(db2, clock);
    try {
      expect((await send(app, signedHeaders(consumer, clock.now))).status).toBe(200);
    } finally {
      await app.close();
      await db2.close();
      await killed.close();
    }
  });

  it('saves day counts, so a restart keeps the day budget spent', async () => {
    const clock = { now: T0 + 200 };
    const db1 = await openDb({ sqlitePath: path });
    const consumer = await createConsumer(db1, { name: 'Day', perSecond: 1000, perDay: 3 });
    const first = await node(db1, clock);
    for (let i = 0; i < 2; i++) expect((await send(first, signedHeaders(consumer, T0 + 200))).status).toBe(200);
    await first.close();
    await db1.close();
    const db2 = await openDb({ sqlitePath: path });
    const second = await node(db2, clock);
    try {
      expect(await db2.guard.count(consumer.key, dayWindow(T0 + 200))).toBe(2);
      expect((await send(second, signedHeaders(consumer, T0 + 200))).status).toBe(200);
      expect(await send(second, signedHeaders(consumer, T0 + 200))).toMatchObject({
        status: 403,
        message: 'Over queries per day limit',
      });
    } finally {
      await second.close();
      await db2.close();
    }
  });
});

describe('two service nodes on one PostgreSQL database', () => {
  let dbs: Db[];
  let apps: FastifyInstance[];
  let drop: () => Promise<void>;
  const clock = { now: T0 };
  beforeAll(async () => {
    const opened = await openTestDb('postgres');
    drop = opened.drop;
    dbs = [opened.db, await openDb({ databaseUrl: opened.databaseUrl! })];
    apps = await Promise.all(dbs.map((db) => node(db, clock)));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.close();
    await drop();
  });

  it('a request answered by one node is a replay on the other', async () => {
    const consumer = await createConsumer(dbs[0]!, { name: 'Two nodes', perSecond: 1000 });
    const request = signedHeaders(consumer, T0);
    expect((await send(apps[0]!, request)).status).toBe(200);
    expect(await send(apps[1]!, request)).toEqual({ status: 401, message: 'Nonce Already Used' });
  });

  it('enforces the per-second and per-day budgets across both nodes (within 10%; exact here)', async () => {
    clock.now = T0 + 10;
    const perSecond = createConsumer(dbs[0]!, { name: 'Burst', perSecond: 20 });
    const burst = await perSecond;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => send(apps[i % 2]!, signedHeaders(burst, T0 + 10))),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(18);
    expect(ok).toBeLessThanOrEqual(22);
    expect(results.filter((r) => r.status === 403).every((r) => r.message === 'Over queries per second limit')).toBe(
      true,
    );

    clock.now = T0 + 20;
    const daily = await createConsumer(dbs[0]!, { name: 'Day', perSecond: 1000, perDay: 30 });
    const dayResults = await Promise.all(
      Array.from({ length: 60 }, (_, i) => send(apps[i % 2]!, signedHeaders(daily, T0 + 20))),
    );
    const dayOk = dayResults.filter((r) => r.status === 200).length;
    expect(dayOk).toBeGreaterThanOrEqual(27);
    expect(dayOk).toBeLessThanOrEqual(33);
  });
});
