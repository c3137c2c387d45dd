import { escapeAttr, escapeText } from '../xml/xml.ts';

/** The fields the sign-in form carries through from the application's URL. */
export interface SignInFields {
  oauth_token: string;
  oauth_consumer_key: string;
  application_name: string;
  oauth_callback: string;
}

/** A demo subscriber whose login and password the page shows (a service started with `--demo`). */
export interface DemoAccount {
  login: string;
  password: string;
}

export interface SignInPageOptions {
  error?: string;
  askTerms: boolean;
  login?: string;
  demo?: DemoAccount | undefined;
}

/** The service's own sign-in page (CONTRACT.md §5): login, password, terms checkbox, hidden oauth fields. */
export function signInPage(action: string, fields: SignInFields, options: SignInPageOptions): string {
  const hidden = (Object.keys(fields) as Array<keyof SignInFields>)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeAttr(fields[name])}">`)
    .join('');
  const app = fields.application_name || 'An application';
  return page(
    'Sign in',
    `<h1>Sign in to Marquee</h1>
<p><strong>${escapeText(app)}</strong> would like to use your Marquee account. Sign in to allow it; it will never see your password.</p>
${options.error ? `<p id="error" role="alert">${escapeText(options.error)}</p>` : ''}
<form method="post" action="${escapeAttr(action)}">${hidden}
<label>Email or login <input name="login" autocomplete="username" required value="${escapeAttr(options.login ?? '')}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
${options.askTerms ? '<label><input type="checkbox" name="accept_tos" value="checked"> I accept the terms of use</label>' : ''}
<button type="submit" name="x" value="1">Allow access</button>
</form>${options.demo ? demoNote(options.demo) : ''}`,
  );
}

function demoNote(demo: DemoAccount): string {
  return `
<p id="demo-account">To try Marquee, sign in with the demo account: login <code id="demo-login">${escapeText(demo.login)}</code>, password <code id="demo-password">${escapeText(demo.password)}</code>.</p>`;
}

/** Shown when there is no callback (or `oob`): the verifier is the PIN the user types into the app. */
export function authorizedPage(applicationName: string, verifier: string): string {
  const app = escapeText(applicationName || 'the application');
  return page(
    'Authorized',
    `<h1>${app} is authorized</h1>
<p>${app} was authorized successfully. To finish signing in, enter this PIN in ${app}: <code id="pin">${escapeText(verifier)}</code></p>`,
  );
}

/** The body of the 302 to the callback, for a client that does not follow it: the URL escaped. */
export function redirectPage(target: string): string {
  return page('Signed in', `<p><a href="${escapeAttr(target)}">Continue to the application</a></p>`);
}

/** A dead end: the link is stale or broken; the application has to start over. */
export function tokenErrorPage(message: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to Marquee</h1><p id="error" role="alert">${escapeText(message)}</p><p>Return to the application and start signing in again.</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeText(title)} · Marquee</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0}input:not([type=checkbox]){display:block;width:100%;padding:.4rem}#error{color:#a00}button{padding:.5rem 1rem}</style></head><body>${body}</body></html>`;
}
