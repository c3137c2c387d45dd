import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  APP_ENTRY_URL, WEB_PREFERENCES, contentSecurityPolicy, denyNavigation, denyPermissionCheck, denyPermissionRequest, denyWebview,
  denyWindowOpen, guardedOpenExternal, isAppUrl, isSignInUrl, parseCsp, rendererHeaders, windowOptions,
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
    for (const url of ['http://localhost:5173/', 'file:///app/dist/renderer/index.html', 'app://other/index.html', 'https://marquee/', 'app://user:pw@marquee/', '', 'nonsense']) {
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

describe('main.ts and preload.ts apply them', () => {
  const main = readFileSync(new URL('../../electron/main.ts', import.meta.url), 'utf8');
  const preload = readFileSync(new URL('../../electron/preload.ts', import.meta.url), 'utf8');

  test('main wires every handler from window-options.ts', () => {
    for (const wiring of [
      'new BrowserWindow(windowOptions(PRELOAD))',
      "contents.on('will-navigate', denyNavigation)",
      "contents.on('will-redirect', denyNavigation)",
      "contents.on('will-attach-webview', denyWebview)",
      'contents.setWindowOpenHandler(denyWindowOpen)',
      'ses.setPermissionRequestHandler(denyPermissionRequest)',
      'ses.setPermissionCheckHandler(denyPermissionCheck)',
      'app.enableSandbox()',
      'win.loadURL(APP_ENTRY_URL)',
    ]) expect(main, wiring).toContain(wiring);
  });

  test('main opens external URLs only through the sign-in guard', () => {
    expect(main.match(/shell\.openExternal/g)).toHaveLength(1);
    expect(main).toMatch(/guardedOpenExternal\(baseUrl, \(url\) => shell\.openExternal\(url\)\)/);
  });

  test('the preload exposes window.marquee and nothing else', () => {
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("contextBridge.exposeInMainWorld('marquee', marquee)");
    expect(preload).toContain('createBridge(');
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
      headers: { authorization: authHeader(svc.consumer, 'POST', url, form), 'content-type': 'application/x-www-form-urlencoded' },
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
    ]) expect(isSignInUrl(url, svc.url), url).toBe(false);
    expect(isSignInUrl(loginUrl, 'http://127.0.0.1:1')).toBe(false);
    expect(isSignInUrl(loginUrl, null)).toBe(false);
  });

  test('the guard opens the sign-in URL and refuses any other', async () => {
    const open = vi.fn(async () => {});
    const openExternal = guardedOpenExternal(async () => svc.url, open);
    await openExternal(loginUrl);
    expect(open).toHaveBeenCalledWith(loginUrl);
    await expect(openExternal('https://evil.example/')).rejects.toThrow(/only the active service's sign-in page/);
    await expect(openExternal(loginUrl.replace('/oauth/login', '/oauth/access_token'))).rejects.toThrow();
    expect(open).toHaveBeenCalledTimes(1);
  });
});
