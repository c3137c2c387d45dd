/** The service's sign-in page as a plain HTTP client (no browser) reads it. */
export interface SignInPage {
  status: number;
  html: string;
  /** Where the form posts to (its `action`, entities decoded). */
  action: string;
  /** The form's hidden fields (the request token and what travels with it). */
  hidden: Record<string, string>;
}

export async function readSignInPage(loginUrl: string | URL): Promise<SignInPage> {
  const res = await fetch(loginUrl);
  const html = await res.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
  return { status: res.status, html, action, hidden };
}

/** Posts the page's form as a person fills it: login, password, the terms accepted. */
export function postSignIn(
  page: SignInPage,
  who: { login: string; password: string },
  redirect: 'follow' | 'manual',
  to: string = page.action,
): Promise<Response> {
  return fetch(to, {
    method: 'POST',
    body: new URLSearchParams({ ...page.hidden, login: who.login, password: who.password, accept_tos: 'checked' }),
    redirect,
  });
}
