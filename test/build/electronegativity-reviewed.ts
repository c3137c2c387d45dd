import {
  denyWindowOpen,
  guardedOpenExternal,
  mainWindowOptions,
  parseCsp,
  rendererHeaders,
} from '../../electron/window-options.ts';

/**
 * The electronegativity findings on electron/ that were reviewed and are not defects, each with the
 * reason and, where the reason is a fact of the code, a check that it still holds. A finding is
 * matched by its check id, its file and the source line it points at, so a new call of the same
 * kind is a new finding that needs its own review.
 */
export interface ReviewedFinding {
  id: string;
  file: string;
  /** The flagged source line, trimmed (electronegativity's `sample`); absent for global checks. */
  sample?: string;
  reason: string;
  /** Resolves true while the reason is still true. */
  holds(): boolean | Promise<boolean>;
}

const WINDOW = 'const win = new BrowserWindow(mainWindowOptions(DIST));';
const webPreferences = () => mainWindowOptions('/app/dist').webPreferences ?? {};

/** The guard main.ts and the web host wrap around the system browser: only the active service's sign-in page opens. */
async function onlySignInPagesOpen(): Promise<boolean> {
  const opened: string[] = [];
  const open = guardedOpenExternal(
    () => 'http://127.0.0.1:8710',
    (url) => (opened.push(url), Promise.resolve()),
  );
  const refused = async (url: string) =>
    open(url).then(
      () => false,
      () => true,
    );
  const foreign = await Promise.all(
    ['file:///etc/passwd', 'https://evil.example/oauth/login', 'http://127.0.0.1:8710/users/1', 'smb://host/share'].map(
      refused,
    ),
  );
  await open('http://127.0.0.1:8710/oauth/login?oauth_token=t');
  return foreign.every(Boolean) && opened.length === 1;
}

const SIGN_IN_ONLY =
  "openExternal is only ever the guardedOpenExternal that main.ts (and the web host) pass in: it opens the active service's http(s) sign-in page and refuses every other URL.";

export const REVIEWED_FINDINGS: ReviewedFinding[] = [
  {
    id: 'CSP_GLOBAL_CHECK',
    file: 'N/A',
    reason:
      "The CSP is a response header, not a <meta> tag the tool can read: rendererHeaders() adds it to every renderer file served on app:// (and by the web host); default-src and script-src are 'self' only.",
    holds: () => {
      const csp = parseCsp(rendererHeaders(null)['content-security-policy'] ?? '');
      return (
        csp.get('default-src')?.join(' ') === "'self'" &&
        csp.get('script-src')?.join(' ') === "'self'" &&
        csp.get('object-src')?.join(' ') === "'none'"
      );
    },
  },
  {
    id: 'CONTEXT_ISOLATION_JS_CHECK',
    file: 'main.ts',
    sample: WINDOW,
    reason:
      'The options come from mainWindowOptions() (window-options.ts), which the tool does not follow: contextIsolation is true.',
    holds: () => webPreferences().contextIsolation === true,
  },
  {
    id: 'SANDBOX_JS_CHECK',
    file: 'main.ts',
    sample: WINDOW,
    reason:
      'The options come from mainWindowOptions(), which the tool does not follow: sandbox is true (and main.ts calls app.enableSandbox()).',
    holds: () => webPreferences().sandbox === true,
  },
  {
    id: 'AUXCLICK_JS_CHECK',
    file: 'main.ts',
    sample: WINDOW,
    reason:
      'A middle click can only ask for a new window or a navigation, and both are refused for every web contents: setWindowOpenHandler(denyWindowOpen), will-navigate cancelled.',
    holds: () => denyWindowOpen().action === 'deny' && webPreferences().nodeIntegration === false,
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main.ts',
    sample: 'openExternal: guardedOpenExternal(baseUrl, (url) => shell.openExternal(url)),',
    reason:
      "shell.openExternal is called only through guardedOpenExternal: the active service's http(s) sign-in page opens, every other URL is refused.",
    holds: onlySignInPagesOpen,
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'core/auth/attempt.ts',
    sample: '.then(() => this.options.openExternal(url))',
    reason: SIGN_IN_ONLY,
    holds: onlySignInPagesOpen,
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'core/compose.ts',
    sample: 'openExternal: (u) => env.openExternal(u),',
    reason: SIGN_IN_ONLY,
    holds: onlySignInPagesOpen,
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'core/compose.ts',
    sample: 'openExternal: (url) => options.openExternal(url),',
    reason: SIGN_IN_ONLY,
    holds: onlySignInPagesOpen,
  },
];
