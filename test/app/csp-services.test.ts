import { expect, test } from 'vitest';
import type { AppCore } from '../../electron/core/app-core.ts';
import { knownServiceOrigins } from '../../electron/core-loader.ts';
import { originsOf, parseCsp, rendererHeaders } from '../../electron/window-options.ts';

/**
 * The page's image policy names every service the app knows, not only the active one: a page keeps
 * the policy it loaded with, so Settings switching service must not leave its box art blocked.
 */

function coreWithProfiles(profiles: { id: string; baseUrl: string }[], activeId: string): AppCore {
  return {
    dispatch: (name: string) =>
      Promise.resolve(
        name === 'profiles.list'
          ? { ok: true, value: { profiles, activeId } }
          : { ok: false, error: { kind: 'invalid', message: name } },
      ),
    on: () => () => {},
    close: async () => {},
  } as unknown as AppCore;
}

test('img-src lists every profile’s origin, the active one first, each once', async () => {
  const core = coreWithProfiles(
    [
      { id: 'embedded', baseUrl: 'http://127.0.0.1:4100' },
      { id: 'a', baseUrl: 'https://catalog.example/api/' },
      { id: 'b', baseUrl: 'https://catalog.example/other' },
    ],
    'a',
  );
  const origins = await knownServiceOrigins(core, 'http://127.0.0.1:4100');
  expect(origins).toEqual(['https://catalog.example', 'http://127.0.0.1:4100']);
  const csp = parseCsp(rendererHeaders(origins)['content-security-policy']!);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https://catalog.example', 'http://127.0.0.1:4100']);
  expect(csp.get('connect-src')).toEqual(["'self'"]); // only images widen
});

test('a core that cannot list its profiles leaves the embedded service’s origin; anything not http(s) is dropped', async () => {
  const failing = {
    dispatch: () => Promise.resolve({ ok: false, error: { kind: 'server', message: 'no' } }),
  } as unknown as AppCore;
  expect(await knownServiceOrigins(failing, 'http://127.0.0.1:4100/')).toEqual(['http://127.0.0.1:4100']);
  expect(originsOf(['javascript:alert(1)', 'file:///etc/passwd', 'http://127.0.0.1:1/x'])).toEqual([
    'http://127.0.0.1:1',
  ]);
  expect(originsOf('http://127.0.0.1:2/')).toEqual(['http://127.0.0.1:2']);
  expect(originsOf(null)).toEqual([]);
});
