import type { BrowserWindowConstructorOptions, Event, HandlerDetails, WebContents, WebPreferences } from 'electron';

/**
 * The window's security settings as plain data and functions, importable without Electron so a
 * test reads exactly what main.ts applies (the `electron` import above is types only).
 */

/** The renderer is served from this custom protocol in production, never from a dev server. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'marquee';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  safeDialogs: true,
} as const satisfies WebPreferences;

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Marquee',
    show: false,
    backgroundColor: '#14161a',
    webPreferences: { ...WEB_PREFERENCES, preload: preloadPath },
  };
}

/** The origins box art may come from: the active service's, or every known service's (a list). */
export type ImageOrigins = string | null | readonly string[];

/**
 * The renderer's Content-Security-Policy: only its own files run, it talks only to its own
 * origin (the web host's API; Electron uses IPC), and images may also come from the services it
 * knows (box art): all of them, since a page keeps its policy when Settings switches service.
 */
export function contentSecurityPolicy(serviceOrigins: ImageOrigins): string {
  const listed = typeof serviceOrigins === 'string' ? [serviceOrigins] : (serviceOrigins ?? []);
  const images = ["'self'", 'data:', ...new Set(listed)];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': images,
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-src': ["'none'"],
    'worker-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Splits a CSP header into its directives (for tests and checks). */
export function parseCsp(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** The origin of an http(s) URL, or null (used for the service's img-src). */
export function httpOrigin(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The distinct http(s) origins of `urls`, in order (the CSP's img-src from the profiles' base URLs). */
export function httpOrigins(urls: Iterable<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const url of urls) {
    const origin = httpOrigin(url);
    if (origin) out.add(origin);
  }
  return [...out];
}

/** The http(s) origins of a host's answer to "which services": one URL, a list, or none. */
export function originsOf(services: ImageOrigins | undefined): string[] {
  return httpOrigins(typeof services === 'string' || services == null ? [services] : services);
}

/** Headers every renderer response carries, in Electron's protocol handler and in the web host. */
export function rendererHeaders(serviceOrigins: ImageOrigins): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(serviceOrigins),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
}

/** True for a page of the app itself: `app://marquee/…`. */
export function isAppUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** The renderer never navigates: every `will-navigate` / `will-redirect` is cancelled. */
export function denyNavigation(event: Pick<Event, 'preventDefault'>, _url?: string): void {
  event.preventDefault();
}

/** `setWindowOpenHandler`: no new windows, ever (links to the outside are not opened either). */
export function denyWindowOpen(_details?: HandlerDetails): { action: 'deny' } {
  return { action: 'deny' };
}

/** `will-attach-webview`: no webviews. */
export function denyWebview(event: Pick<Event, 'preventDefault'>): void {
  event.preventDefault();
}

/** `session.setPermissionRequestHandler`: camera, notifications, geolocation… all denied. */
export function denyPermissionRequest(
  _webContents: WebContents | null,
  _permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(false);
}

/** `session.setPermissionCheckHandler`: every check answers "not granted". */
export function denyPermissionCheck(): boolean {
  return false;
}

/** The preload main.ts gives the window, beside dist/main.mjs. */
export const PRELOAD_FILE = 'preload.cjs';

/** The options main.ts creates its window with (`distDir`: the folder of dist/main.mjs). */
export function mainWindowOptions(distDir: string): BrowserWindowConstructorOptions {
  return windowOptions(`${distDir.replace(/[\\/]+$/, '')}/${PRELOAD_FILE}`);
}

/** What main.ts hardens on every web contents Electron creates (WebContents, structurally). */
export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-attach-webview',
    listener: (event: Pick<Event, 'preventDefault'>) => void,
  ): unknown;
  setWindowOpenHandler(handler: (details: HandlerDetails) => { action: 'deny' }): void;
}

/** Every web contents: no navigation or redirect away, no webview, no new window. */
export function secureContents(contents: GuardedContents): void {
  contents.on('will-navigate', denyNavigation);
  contents.on('will-redirect', denyNavigation);
  contents.on('will-attach-webview', denyWebview);
  contents.setWindowOpenHandler(denyWindowOpen);
}

/** What main.ts hardens on the default session (Session, structurally). */
export interface GuardedSession {
  setPermissionRequestHandler(handler: typeof denyPermissionRequest): void;
  setPermissionCheckHandler(handler: typeof denyPermissionCheck): void;
  setDevicePermissionHandler(handler: () => boolean): void;
}

/** The session: every permission request, check and device refused. */
export function securePermissions(ses: GuardedSession): void {
  ses.setPermissionRequestHandler(denyPermissionRequest);
  ses.setPermissionCheckHandler(denyPermissionCheck);
  ses.setDevicePermissionHandler(() => false);
}

/** The service's sign-in page (CONTRACT.md §5), under the profile's base URL. */
export const SIGN_IN_PATH = '/oauth/login';

/**
 * The only URL `shell.openExternal` may open: the sign-in page of the active profile's service,
 * over http(s), with no credentials in it.
 */
export function isSignInUrl(url: string, activeBaseUrl: string | null): boolean {
  if (!activeBaseUrl) return false;
  let target: URL;
  let base: URL;
  try {
    target = new URL(url);
    base = new URL(activeBaseUrl);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.username || target.password || target.hash) return false;
  if (target.origin !== base.origin) return false;
  return target.pathname === base.pathname.replace(/\/+$/, '') + SIGN_IN_PATH;
}

/**
 * Wraps the platform's "open in system browser" so it only ever opens the active profile's
 * sign-in URL; anything else is refused with an error the core reports.
 */
export function guardedOpenExternal(
  activeBaseUrl: () => Promise<string | null> | string | null,
  open: (url: string) => Promise<boolean | void>,
): (url: string) => Promise<boolean> {
  return async (url) => {
    if (!isSignInUrl(url, await activeBaseUrl()))
      throw new Error(`Refused to open ${safeForLog(url)}: only the active service's sign-in page may be opened.`);
    return (await open(url)) !== false;
  };
}

function safeForLog(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}
