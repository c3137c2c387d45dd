import { authHeader, type Credentials } from './oauth-client.ts';

export interface Answer {
  status: number;
  body: string;
}

/** One signed request over real HTTP to a service process (keep-alive, as an app would). */
export async function signedFetch(
  base: string,
  consumer: Credentials,
  token: Credentials | undefined,
  method: 'GET' | 'POST',
  path: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = `${base}${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      authorization: authHeader(consumer, method, url, form ?? {}, token),
      ...headers,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return { status: res.status, body: await res.text() };
}

/** A small deterministic generator, so a failing run can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
