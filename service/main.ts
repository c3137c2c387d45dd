import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { defaultBaseUrl, parseConfig, SETTINGS_HELP, type ServiceConfig } from './config.ts';
import type { Db, StoreLocation } from './store/db.ts';
import { openStore } from './store/files.ts';
import type { DemoSubscriber } from './data/demo/subscriber-account.ts';

/** `npm run service [-- <settings>] [-- <command>]`: serve, or run an operator command. */
async function main(): Promise<void> {
  const { config, rest } = parseConfig(process.argv.slice(2));
  if (rest[0] === '--help' || rest[0] === 'help') {
    console.log(
      `usage: npm run service -- [settings] [command]\n  ${SETTINGS_HELP}\ncommands: consumers add|list|revoke|quota, users add|list|passwd|tokens|revoke-tokens|rotate-feed, catalog availability <title id> --from <date> --until <date> [--format instant|disc], seed --synthetic N [--page-cache-mb M]`,
    );
    return;
  }
  // Whatever the service creates (the SQLite WAL and shared-memory files too) is the user's alone.
  process.umask(0o077);
  // An operator command answers no requests: it leaves the request guard to a service running on the same store.
  const db = await openStore(storeLocation(config), { admitsRequests: rest.length === 0 });
  // Each path loads only its own modules: an operator command does not pay for the HTTP app.
  if (rest.length > 0) {
    try {
      const { runCommand } = await import('./cli/index.ts');
      process.exitCode = await runCommand(db, rest);
    } finally {
      await db.close();
    }
    return;
  }
  await serve(config, db);
}

export function storeLocation(config: ServiceConfig): StoreLocation {
  return config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { sqlitePath: join(config.dataDir, 'marquee.sqlite') };
}

async function serve(config: ServiceConfig, db: Db): Promise<void> {
  let app: FastifyInstance | undefined;
  let stopping = false;
  // Registered before the (possibly long) first load. A stop seen during it exits at once: each
  // batch is a transaction, and a load cut short is cleared and redone on the next start. (On
  // SQLite the synchronous driver holds the event loop, so the signal is only seen at the end.)
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    if (!app) process.exit(0);
    try {
      await app.close();
      await db.close();
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const { ensureDemoData } = await import('./bootstrap.ts');
  const { consumer, subscriber } = await ensureDemoData(db, Math.floor(Date.now() / 1000));
  const listening = await listen(config, db, config.demo ? subscriber : undefined);
  app = listening.app;
  console.log(`Marquee service listening on ${listening.localUrl}`);
  if (listening.baseUrl !== listening.localUrl) console.log(`base URL: ${listening.baseUrl}`);
  console.log(`demo sign-in: login ${subscriber.login}, password ${subscriber.password}`);
  console.log(`demo consumer key: ${consumer.key}`);
  console.log(`demo consumer secret: ${consumer.secret}`);
}

/**
 * Builds the app on the base URL its ids and links need, and binds it. The base URL is fixed when
 * the app is built, so with `--port 0` (and no explicit base URL) a free port is reserved first
 * and the app built on it; should another process take that port in between, try again.
 */
async function listen(
  config: ServiceConfig,
  db: Db,
  demoAccount: DemoSubscriber | undefined,
): Promise<{ app: FastifyInstance; baseUrl: string; localUrl: string }> {
  const { buildServer } = await import('./server.ts');
  for (let attempt = 1; ; attempt++) {
    const port = config.port === 0 && !config.baseUrlGiven ? await freePort(config.host) : config.port;
    const baseUrl = config.baseUrlGiven ? config.baseUrl : defaultBaseUrl(config.host, port);
    const app = buildServer({
      db,
      baseUrl,
      logLevel: config.logLevel,
      metrics: config.metrics && { process: true, token: config.metricsToken },
      trustProxy: config.trustProxy,
      demoAccount,
      bulkReplace: config.bulkReplace,
    });
    try {
      await app.listen({ host: config.host, port });
    } catch (error) {
      await app.close();
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (taken && config.port === 0 && attempt < 5) continue;
      throw error;
    }
    const address = app.server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    return { app, baseUrl, localUrl: defaultBaseUrl(config.host, bound) };
  }
}

/** A port free on `host` right now. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
