import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAppBundles } from '../../helpers/app-bundles.ts';
import { ROOT, childEnv } from '../../helpers/service-process.ts';
import { watchAppForEvidence } from './evidence.ts';
import { Output, stopTree } from './processes.ts';
import { copyDemoStore } from '../../helpers/service.ts';
import { serviceDataDir } from '../../../electron/embedded-service.ts';

/** The app as a user starts it: `npm start` without Electron, so the web host and (by default) its embedded service. */
export interface RunningApp {
  proc: ChildProcess;
  output: Output;
  /** The printed address with the per-launch token in its fragment. */
  launchUrl: string;
  /** The web host's origin (http://127.0.0.1:<port>). */
  hostUrl: string;
  /** The service the app talks to: the embedded one, or the one given. */
  serviceOrigin: string;
  /** The demo subscriber's sign-in (from the embedded service, or given). */
  demo: { login: string; password: string };
  userDataDir: string;
  /** Stops the app (SIGTERM) and everything it started; the exit code and any process left behind. */
  stop(): Promise<{ code: number | null; left: number[] }>;
}

export interface StartAppOptions {
  /** Talk to this service instead of the embedded one (the web host's MARQUEE_SERVICE_URL/…KEY/…SECRET). */
  service?: { url: string; key: string; secret: string; demo: { login: string; password: string } };
  /** Reuse a user-data folder (to restart the app on the same settings); default a fresh one. */
  userDataDir?: string;
  /**
   * The app's availability watcher checking on its own (on start and sign-in); default
   * off: only the alerts tests need it, and with a 300-title queue its start-up check read every
   * title through the quota the test's own moves and reads were paced in.
   */
  watchAlerts?: boolean;
  env?: Record<string, string>;
}

const NO_ELECTRON = mkdtempSync(join(tmpdir(), 'marquee-no-electron-'));

/**
 * Starts the app and resolves once it printed its address. A fresh user-data folder whose
 * embedded service starts on a copy of the demo catalog (the run's template, so no catalog load).
 */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  await ensureAppBundles(); // built once for the run, not by each file's start.mjs
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'marquee-e2e-user-'));
  const fresh = !options.userDataDir;
  if (fresh && !options.service) {
    copyDemoStore(serviceDataDir(userDataDir));
  }
  const serviceEnv: Record<string, string> = options.service
    ? {
        MARQUEE_SERVICE_URL: options.service.url,
        MARQUEE_CONSUMER_KEY: options.service.key,
        MARQUEE_CONSUMER_SECRET: options.service.secret,
      }
    : {};
  const proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: childEnv({
      MARQUEE_USER_DATA_DIR: userDataDir,
      MARQUEE_NO_BROWSER: '1',
      ELECTRON_OVERRIDE_DIST_PATH: NO_ELECTRON,
      ...(options.watchAlerts ? {} : { MARQUEE_WATCH_ALERTS: '0' }),
      ...serviceEnv,
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = new Output(proc, 'start.mjs');
  watchAppForEvidence('the app (start.mjs)', proc, output);
  try {
    const launchUrl = (await output.waitFor(/^Marquee is running at (\S+)$/m, 100_000))[1]!;
    const embedded = /^Embedded service listening on (http:\/\/\S+)/m.exec(output.text)?.[1];
    const sign = /^Demo sign-in: login (\S+), password (\S+)$/m.exec(output.text);
    const demo = options.service?.demo ?? (sign ? { login: sign[1]!, password: sign[2]! } : null);
    if (!demo) throw new Error(`no demo sign-in printed:\n${output.text}`);
    return {
      proc,
      output,
      launchUrl,
      hostUrl: new URL(launchUrl).origin,
      serviceOrigin: new URL(options.service?.url ?? embedded ?? '').origin,
      demo,
      userDataDir,
      async stop() {
        const result = await stopTree(proc);
        if (fresh) rmSync(userDataDir, { recursive: true, force: true });
        return result;
      },
    };
  } catch (error) {
    await stopTree(proc);
    throw error;
  }
}
