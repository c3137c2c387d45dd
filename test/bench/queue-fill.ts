import http from 'node:http';
import { availableTitleIds } from '../helpers/catalog-picks.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import type { LiveService } from './context.ts';

/** Adds `count` streamable movies to a subscriber's instant queue through the service's own POST. */
export async function fillInstantQueue(
  live: LiveService,
  userId: string,
  token: Credentials,
  count: number,
): Promise<void> {
  const ids = await availableTitleIds(live.bench.db, 'movie', 'instant', count);
  const path = `/users/${userId}/queues/instant`;
  for (const id of ids) {
    const form = { title_ref: `http://127.0.0.1:8710/catalog/titles/movies/${id}` };
    const status = await post(
      live.port,
      path,
      form,
      authHeader(live.bench.consumer, 'POST', `http://127.0.0.1:${live.port}${path}`, form, token),
    );
    if (status >= 300) throw new Error(`filling the queue: POST ${path} answered ${status}`);
  }
}

function post(port: number, path: string, form: Record<string, string>, authorization: string): Promise<number> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
