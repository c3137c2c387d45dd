import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../../../electron/core/app-core.ts';
import { createClient, type Client } from '../../../electron/core/client/index.ts';
import { createCore, type CoreOptions } from '../../../electron/core/compose.ts';
import { ensureDefaultProfile, openNodeSettings } from '../../../electron/core/settings/index.ts';
import { createTransport } from '../../../electron/core/transport/index.ts';
import { openDb } from '../../../service/store/db.ts';
import { issueAccessToken } from '../../../service/store/oauth/tokens.ts';
import { createUser, type NewUser } from '../../../service/store/subscriber/users.ts';
import { LAUNCHER_ENTRY, running, startService, type RunningService } from '../../helpers/service-process.ts';
import type { Credentials } from '../../helpers/oauth-client.ts';
import { copyDemoStore } from '../../helpers/service.ts';

/** The tokens the app keeps for its embedded profile. */
export interface AppTokens {
  token: string;
  secret: string;
  userId: string;
}

/**
 * The service as a process (what the desktop app embeds) on a copy of the run's demo catalog, with
 * one subscriber signed in twice: on the app under test, and on another device.
 */
export interface ProcessService {
  svc: RunningService;
  dataDir: string;
  /** The app's user-data folder. */
  userDir: string;
  appToken: AppTokens;
  otherToken: Credentials;
}

/** `name` marks the temporary folders; `user` is the subscriber both devices sign in as. */
export async function startProcessService(name: string, user: NewUser): Promise<ProcessService> {
  const dataDir = mkdtempSync(join(tmpdir(), `marquee-${name}-svc-`));
  const userDir = mkdtempSync(join(tmpdir(), `marquee-${name}-app-`));
  // The run's demo catalog, copied: the service starts on it instead of loading the catalog again.
  const store = copyDemoStore(dataDir);
  const svc = await startServiceOn(dataDir);
  const db = await openDb({ sqlitePath: store });
  try {
    const created = await createUser(db, user);
    const mine = await issueAccessToken(db, svc.demo.key, created.id);
    const theirs = await issueAccessToken(db, svc.demo.key, created.id);
    return {
      svc,
      dataDir,
      userDir,
      appToken: { token: mine.token, secret: mine.secret, userId: created.id },
      otherToken: { key: theirs.token, secret: theirs.secret },
    };
  } finally {
    await db.close();
  }
}

/** The service (again) on its data folder, on a port the system picks. */
export function startServiceOn(dataDir: string): Promise<RunningService> {
  return startService(['--port', '0', '--data-dir', dataDir], {}, LAUNCHER_ENTRY);
}

/** Stops the service (if it still runs) and every process the test started, and removes both folders. */
export async function stopProcessService(env: Partial<ProcessService>): Promise<void> {
  if (env.svc?.proc.exitCode === null) await env.svc.stop('SIGTERM');
  for (const proc of running) proc.kill('SIGKILL');
  if (env.dataDir) rmSync(env.dataDir, { recursive: true, force: true });
  if (env.userDir) rmSync(env.userDir, { recursive: true, force: true });
}

/** The same subscriber on another device, at `baseUrl`: its own token and resource client. */
export function otherDeviceClient(baseUrl: string, consumer: Credentials, token: Credentials): Client {
  const transport = createTransport({ getContext: () => ({ baseUrl, consumer, token }) });
  return createClient(transport, { baseUrl: () => baseUrl });
}

/**
 * A core as a host builds it: the embedded profile at the service's address of this launch,
 * signed in with `appToken` unless the folder keeps tokens already. Alerts are checked only when asked.
 */
export function processCore(
  env: Pick<ProcessService, 'svc' | 'userDir' | 'appToken'>,
  options: Partial<CoreOptions> = {},
): AppCore {
  const settings = openNodeSettings({ dir: env.userDir, onWarning: () => {} });
  const { svc } = env;
  ensureDefaultProfile(settings, { baseUrl: svc.localUrl, consumerKey: svc.demo.key, consumerSecret: svc.demo.secret });
  if (!settings.getTokens('embedded')) settings.setTokens('embedded', env.appToken);
  return createCore({
    userDataDir: env.userDir,
    settings,
    openExternal: () => {
      throw new Error('no browser in this test');
    },
    outboxRetry: { baseMs: 40, maxMs: 200 },
    log: () => {},
    watchAlerts: false,
    ...options,
  });
}
