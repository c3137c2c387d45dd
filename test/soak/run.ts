// `npm run soak [-- --seconds N --connections N]`: the full-length soak against a service process
// on a fresh data directory (its first start loads the demo catalog). Prints the figures as JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../service/store/db.ts';
import { startService } from '../helpers/service-process.ts';
import { soak } from './soak.ts';
import { soakAccounts } from './setup.ts';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const seconds = flag('seconds', 60);
  const connections = flag('connections', 200);
  const dir = mkdtempSync(join(tmpdir(), 'marquee-soak-'));
  try {
    // First start loads the catalog; stopped, the accounts are added, then the service serves again.
    const loader = await startService(['--data-dir', dir, '--port', '0']);
    await loader.stop('SIGTERM');
    const db = await openDb({ sqlitePath: join(dir, 'marquee.sqlite') });
    const accounts = await soakAccounts(db, 20, connections);
    await db.close();
    const svc = await startService(['--data-dir', dir, '--port', '0']);
    try {
      const result = await soak({ localUrl: svc.localUrl, baseUrl: svc.baseUrl, pid: svc.proc.pid!, ...accounts }, connections, seconds);
      console.log(JSON.stringify(result, null, 2));
      if (result.errors.length > 0) process.exitCode = 1;
    } finally {
      await svc.stop('SIGTERM');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
