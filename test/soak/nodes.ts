import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoreLocation } from '../../service/store/db.ts';
import { LAUNCHER_ENTRY, startService, type RunningService } from '../helpers/service-process.ts';

/** A service node of the soak: a real process (the `npm run service` launcher) with a memory probe. */
export interface SoakNode {
  service: RunningService;
  port: number;
  /** Resident set size, from /proc, in MB. */
  rssMb(): number;
  /** Heap used, as the process last wrote it (within a second), in MB. */
  heapUsedMb(): number;
  stop(): Promise<void>;
}

const PROBE = pathToFileURL(join(import.meta.dirname, 'probe.mjs')).href;

/** The service's settings for a store: its data folder (SQLite) or the database URL. */
export function storeArgs(location: StoreLocation): string[] {
  return 'sqlitePath' in location
    ? ['--data-dir', join(location.sqlitePath, '..')]
    : ['--database-url', location.databaseUrl];
}

/** Starts a node on `location`, port 0 (its first start on an empty store loads the demo catalog). */
export async function startNode(location: StoreLocation): Promise<SoakNode> {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-probe-'));
  const probeFile = join(dir, 'memory.json');
  const service = await startService([...storeArgs(location), '--port', '0'], { MARQUEE_SOAK_PROBE: probeFile }, [
    '--import',
    PROBE,
    ...LAUNCHER_ENTRY,
  ]);
  const pid = service.proc.pid!;
  return {
    service,
    port: Number(new URL(service.localUrl).port),
    rssMb: () => rssMb(pid),
    heapUsedMb() {
      try {
        return (JSON.parse(readFileSync(probeFile, 'utf8')) as NodeJS.MemoryUsage).heapUsed / 2 ** 20;
      } catch {
        return Number.NaN; // between the probe's truncate and write
      }
    },
    async stop() {
      await service.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}
