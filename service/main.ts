import { join } from 'node:path';
import { ensureDemoData } from './bootstrap.ts';
import { runCommand } from './cli.ts';
import { parseConfig, SETTINGS_HELP, type ServiceConfig } from './config.ts';
import { buildServer } from './server.ts';
import { openDb, type StoreLocation } from './store/db.ts';

/** `npm run service [-- <settings>] [-- <command>]`: serve, or run an operator command. */
async function main(): Promise<void> {
  const { config, rest } = parseConfig(process.argv.slice(2));
  if (rest[0] === '--help' || rest[0] === 'help') {
    console.log(`usage: npm run service -- [settings] [command]\n  ${SETTINGS_HELP}\ncommands: consumers add|list|revoke|quota, seed --synthetic N`);
    return;
  }
  const db = await openDb(storeLocation(config));
  if (rest.length > 0) {
    try {
      process.exitCode = await runCommand(db, rest);
    } finally {
      await db.close();
    }
    return;
  }
  await serve(config, db);
}

export function storeLocation(config: ServiceConfig): StoreLocation {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl } : { sqlitePath: join(config.dataDir, 'marquee.sqlite') };
}

async function serve(config: ServiceConfig, db: Awaited<ReturnType<typeof openDb>>): Promise<void> {
  const consumer = await ensureDemoData(db, Math.floor(Date.now() / 1000));
  const app = buildServer({ db, baseUrl: config.baseUrl, logger: process.env.MARQUEE_LOG === '1' });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = config.port === 0 ? config.baseUrl.replace(/:0$/, `:${port}`) : config.baseUrl;
  console.log(`Marquee service listening on ${baseUrl}`);
  console.log(`demo consumer key: ${consumer.key}`);
  console.log(`demo consumer secret: ${consumer.secret}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
