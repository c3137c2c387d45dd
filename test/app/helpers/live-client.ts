import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport, openEtagCache } from '../../../electron/core/transport/index.ts';
import type { ServiceRequest, Transport } from '../../../electron/core/types.ts';
import { startLiveService, subscriberToken, type LiveService } from '../../helpers/live-service.ts';
import { testTransport, type TestTransport } from './test-transport.ts';

export interface LiveClientEnv {
  svc: LiveService;
  /** The app's real transport (signing, ETag cache, error mapping), logging every request. */
  transport: Transport;
  /** Every request the transport was asked to make. */
  log: ServiceRequest[];
  /** A plain signed fetch answering any status as is (for error bodies). */
  raw: TestTransport['raw'];
  /** GET of a URL or path through the real transport → the body. */
  body(url: string, query?: Record<string, string>, level?: ServiceRequest['level']): Promise<string>;
  close(): Promise<void>;
}

/** The real service on loopback, its subscriber signed in with a fresh access token. */
export async function startLiveClientEnv(): Promise<LiveClientEnv> {
  const svc = await startLiveService();
  const token = await subscriberToken(svc);
  const consumer = { key: svc.consumer.key, secret: svc.consumer.secret };
  const dir = mkdtempSync(join(tmpdir(), 'marquee-client-'));
  const cache = openEtagCache({ dir }).forUser(`test:${svc.subscriber.id}`);
  const real = createTransport({ getContext: () => ({ baseUrl: svc.url, consumer, token }), cache });
  const log: ServiceRequest[] = [];
  const transport: Transport = {
    request(req) {
      log.push(req);
      return real.request(req);
    },
  };
  const plain = testTransport({ baseUrl: svc.url, consumer, token });
  return {
    svc,
    transport,
    log,
    raw: (req) => plain.raw(req),
    async body(url, query = {}, level) {
      return (
        await transport.request({ url, query, level: level ?? (url.includes('/users/') ? 'protected' : 'signed') })
      ).body;
    },
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
