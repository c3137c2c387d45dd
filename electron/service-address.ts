import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { superviseService, type ServiceRun, type ServiceSupervisor } from './service-supervisor.ts';

/**
 * The embedded service keeps one address for life: its port is chosen once (a free one at the
 * first launch), kept in the user-data folder, and asked for at every launch, by the web host and
 * Electron alike (`superviseEmbeddedService`). When another program holds it, the service still
 * comes up on a free port and that port is kept from then on; the core maps what it stored from
 * the old address (settings' former base URLs, queue/addresses.ts).
 */

/** Where the port is kept: beside the settings, in the app's user-data folder. */
export function servicePortFile(userDataDir: string): string {
  return join(userDataDir, 'embedded-service.json');
}

/** The port kept by an earlier launch, or 0 (none yet, or a file that cannot be read as one). */
export async function readServicePort(userDataDir: string): Promise<number> {
  try {
    const { port } = JSON.parse(await readFile(servicePortFile(userDataDir), 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : 0;
  } catch {
    return 0;
  }
}

/** Keeps `port` for the next launches (written whole to a temp file, synced, renamed into place). */
export async function rememberServicePort(userDataDir: string, port: number): Promise<void> {
  const path = servicePortFile(userDataDir);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify({ port })}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined);
    throw error;
  });
}

/** Whether nothing listens on 127.0.0.1:`port` now (a bind that is closed at once). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * Starts the embedded service on the port kept by earlier launches (any free one the first time,
 * or when another program holds it), supervised, and keeps the port it got for the next launch.
 */
export async function superviseEmbeddedService(opts: {
  userDataDir: string;
  start: (port: number) => Promise<ServiceRun>;
  log: (message: string) => void;
}): Promise<ServiceSupervisor> {
  const kept = await readServicePort(opts.userDataDir);
  const wanted = kept !== 0 && !(await portIsFree(kept)) ? 0 : kept;
  if (wanted !== kept)
    opts.log(`Port ${kept} is taken by another program; the service starts on a free one and the app moves with it.`);
  const service = await superviseService({ port: wanted, start: opts.start, log: opts.log });
  if (service.port !== kept) {
    await rememberServicePort(opts.userDataDir, service.port).catch((error: unknown) =>
      opts.log(`Could not keep the service's port for the next launch: ${String(error)}`),
    );
  }
  return service;
}
