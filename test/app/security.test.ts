import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  APP_ENTRY_URL,
  WEB_PREFERENCES,
  contentSecurityPolicy,
  denyNavigation,
  denyPermissionCheck,
  denyPermissionRequest,
  denyWebview,
  denyWindowOpen,
  guardedOpenExternal,
  isAppUrl,
  isSignInUrl,
  mainWindowOptions,
  parseCsp,
  rendererHeaders,
  secureContents,
  securePermissions,
  windowOptions,
} from '../../electron/window-options.ts';
import { startLiveService, type LiveService } from '../helpers/live-service.ts';
import { authHeader } from '../helpers/oauth-client.ts';

/** The window's security settings, read from electron/window-options.ts (what main.ts applies). */

const SERVICE = 'http://127.0.0.1:8710';

describe('window options', () => {
  const prefs = windowOptions('/app/dist/preload.cjs').webPreferences!;

  test('isolate the renderer: context isolation, sandbox, no Node, web security on', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
  });

  test('load the bundled CommonJS preload and nothing else from disk', () => {
    expect(prefs.preload).toBe('/app/dist/preload.cjs');
    expect(WEB_PREFERENCES).not.toHaveProperty('preload');
  });

  test('the renderer is loaded from the app:// protocol, not a dev server', () => {
    expect(APP_ENTRY_URL).toBe('app://marquee/index.html');
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    for (const url of [
      'http://localhost:5173/',
      'file:///app/dist/renderer/index.html',
      'app://other/index.html',
      'https://marquee/',
      'app://user:pw@marquee/',
      '',
      'nonsense',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});

describe('content security policy', () => {
  const csp = parseCsp(contentSecurityPolicy(SERVICE));

  test("default-src and script-src are 'self' only; nothing allows eval or inline code", () => {
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    const all = [...csp.values()].flat();
    expect(all).not.toContain("'unsafe-eval'");
    expect(all).not.toContain("'unsafe-inline'");
    expect(all).not.toContain('*');
  });

  test('images come from the app itself and the active service, nowhere else', () => {
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', SERVICE]);
    expect(parseCsp(contentSecurityPolicy(null)).get('img-src')).toEqual(["'self'", 'data:']);
  });

  test('no plugins, frames, foreign connections, base or form targets', () => {
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  test('every renderer response carries it', () => {
    expect(rendererHeaders(SERVICE)['content-security-policy']).toBe(contentSecurityPolicy(SERVICE));
    expect(rendererHeaders(SERVICE)['x-content-type-options']).toBe('nosniff');
  });
});

describe('navigation, windows and permissions', () => {
  test('will-navigate and will-redirect are cancelled', () => {
    const event = { preventDefault: vi.fn() };
    denyNavigation(event, 'https://evil.example/');
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  test('new windows are denied', () => {
    expect(denyWindowOpen({ url: 'https://evil.example/' } as never)).toEqual({ action: 'deny' });
  });

  test('webviews are not attached', () => {
    const event = { preventDefault: vi.fn() };
    denyWebview(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  test('permission requests and checks are denied', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      denyPermissionRequest(null, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(denyPermissionCheck()).toBe(false);
  });
});

describe('what main.ts applies', () => {
  test('its window: the hardened preferences, with the bundled preload beside main.mjs', () => {
    const options = mainWindowOptions('/app/dist/');
    expect(options.webPreferences).toEqual({ ...WEB_PREFERENCES, preload: '/app/dist/preload.cjs' });
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
  });

  test('every web contents: navigation, redirects, webviews and new windows all refused', () => {
    const handlers = new Map<string, (event: { preventDefault(): void }) => void>();
    let openHandler: ((details: never) => { action: string }) | undefined;
    secureContents({
      on: (event, listener) => handlers.set(event, listener),
      setWindowOpenHandler: (h) => void (openHandler = h as never),
    });
    expect([...handlers.keys()].sort()).toEqual(['will-attach-webview', 'will-navigate', 'will-redirect']);
    for (const [name, handler] of handlers) {
      const event = { preventDefault: vi.fn() };
      handler(event);
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    expect(openHandler!({} as never)).toEqual({ action: 'deny' });
  });

  test('the session: every permission request, check and device refused', () => {
    const set: Record<string, (...args: never[]) => unknown> = {};
    securePermissions({
      setPermissionRequestHandler: (h) => void (set.request = h as never),
      setPermissionCheckHandler: (h) => void (set.check = h as never),
      setDevicePermissionHandler: (h) => void (set.device = h as never),
    });
    const callback = vi.fn();
    (set.request as (w: null, p: string, c: (g: boolean) => void) => void)(null, 'camera', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect((set.check as () => boolean)()).toBe(false);
    expect((set.device as () => boolean)()).toBe(false);
  });
});

describe('openExternal allowlist', () => {
  let svc: LiveService;
  let loginUrl: string;

  beforeAll(async () => {
    svc = await startLiveService();
    // A real sign-in URL: the login_url the service hands out with a request token.
    const url = `${svc.url}/oauth/request_token`;
    const form = { oauth_callback: 'oob' };
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: authHeader(svc.consumer, 'POST', url, form),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });
    expect(res.status).toBe(200);
    loginUrl = new URLSearchParams(await res.text()).get('login_url') ?? '';
  });
  afterAll(async () => {
    await svc?.close();
  });

  test("accepts the active profile's sign-in URL, as the service builds it", () => {
    expect(loginUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/login\?/);
    expect(isSignInUrl(loginUrl, svc.url)).toBe(true);
  });

  test('refuses everything else', () => {
    const other = new URL(loginUrl);
    other.port = String(Number(other.port) + 1);
    for (const url of [
      other.toString(),
      loginUrl.replace('/oauth/login', '/oauth/login2'),
      loginUrl.replace('/oauth/login', '/catalog/titles'),
      loginUrl.replace('http://', 'https://'),
      loginUrl.replace('http://', 'http://user:pw@'),
      `${loginUrl}#fragment`,
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://evil.example/oauth/login',
      'not a url',
    ])
      expect(isSignInUrl(url, svc.url), url).toBe(false);
    expect(isSignInUrl(loginUrl, 'http://127.0.0.1:1')).toBe(false);
    expect(isSignInUrl(loginUrl, null)).toBe(false);
  });

  test('the guard opens the sign-in URL and refuses any other', async () => {
    const open = vi.fn(async () => {});
    const openExternal = guardedOpenExternal(() => Promise.resolve(svc.url), open);
    await openExternal(loginUrl);
    expect(open).toHaveBeenCalledWith(loginUrl);
    await expect(openExternal('https://evil.example/')).rejects.toThrow(/only the active service's sign-in page/);
    await expect(openExternal(loginUrl.replace('/oauth/login', '/oauth/access_token'))).rejects.toThrow();
    expect(open).toHaveBeenCalledTimes(1);
  });
});
