import type { ServiceRequest, ServiceResponse, Transport } from '../types.ts';

/**
 * A GET and the parse of its answer. A body served from the ETag cache that does not parse (a torn
 * answer was kept) is asked for afresh, and the good answer replaces it in the cache.
 */
export async function readParsed<T>(
  transport: Pick<Transport, 'request'>,
  req: ServiceRequest,
  parse: (res: ServiceResponse) => T,
): Promise<T> {
  const res = await transport.request(req);
  try {
    return parse(res);
  } catch (error) {
    if (!res.fromCache) throw error;
    return parse(await transport.request({ ...req, cache: 'refresh' }));
  }
}
