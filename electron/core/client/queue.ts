import type { Queue, QueueItem, QueueKind, QueueView } from '../../../shared/models.ts';
import { ServiceError, type ServiceResponse, type Transport } from '../types.ts';
import { createdQueueItems, etagFromHeader, parseQueue, parseStatus, type Status } from '../xml/index.ts';
import { pagingQuery, type Paging } from './catalog.ts';
import { readParsed } from './read-parsed.ts';

/**
 * The queues: read a view, add, move, remove, and replace the whole order (the service's PUT
 * extension; whether the service has it is kept per service, and queue/bulk.ts falls back to single
 * moves without it). Every write is conditional on the etag it is given (If-Match) and answers the
 * queue's new etag.
 */

export interface QueueWrite extends Status {
  /** The queue's etag after the write (the one given when nothing changed). */
  etag: string;
  /** Queue items the write created (an add; a series adds several). */
  items: QueueItem[];
  /** False when the service answered that nothing changed (304 to a replace). */
  changed: boolean;
}

export interface AddOptions {
  /** 1-based; omitted → the end. */
  position?: number;
  /** Disc queue only: `DVD` or `Blu-ray` (the service picks from the user's preferences otherwise). */
  format?: string;
}

export interface QueueClient {
  /** GET {user}/queues/{kind}[/available|/saved]. */
  queue(kind: QueueKind, opts?: Paging & { view?: QueueView }): Promise<Queue>;
  /** POST title_ref (+ position, format). 412 sub 710 when already queued without a position. */
  queueAdd(kind: QueueKind, ref: string, etag: string, opts?: AddOptions): Promise<QueueWrite>;
  /** POST title_ref + position: moves a queued title. */
  queueMove(kind: QueueKind, ref: string, position: number, etag: string): Promise<QueueWrite>;
  /** DELETE the item's URL exactly as the queue gave it (`QueueItem.itemRef`). */
  queueRemove(itemRef: string, etag: string): Promise<QueueWrite>;
  /**
   * PUT title_ref[1..n] (+ format[n]): the available part becomes exactly `refs`, atomically; titles
   * left out leave it. Throws ServiceError (status 405) when the service has no bulk replace.
   */
  queueReplace(
    kind: QueueKind,
    refs: readonly string[],
    etag: string,
    formats?: readonly string[],
  ): Promise<QueueWrite>;
  /** Whether the service offers bulk replace, as its last queueReplace answered; undefined when not yet known for the current service. */
  bulkReplaceSupport(): boolean | undefined;
}

/** A PUT the service does not route: 405 (or 404 / 501 with no sub_code on a URL that exists). */
export function isUnsupported(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  const { status, subCode } = error.appError;
  return status === 405 || status === 501 || (status === 404 && subCode === undefined);
}

function writeOf(res: ServiceResponse, fallbackEtag: string): QueueWrite {
  if (res.status === 304 || res.body.trim() === '') {
    const etag = etagFromHeader(res.headers.etag) ?? fallbackEtag;
    return {
      statusCode: res.status,
      subCode: null,
      message: 'Not modified',
      etag,
      createdRefs: [],
      created: undefined,
      failedTitleRefs: [],
      alreadyInQueue: [],
      items: [],
      changed: res.status !== 304,
    };
  }
  const status = parseStatus(res.body, res.headers);
  return { ...status, etag: status.etag ?? fallbackEtag, items: createdQueueItems(status.created), changed: true };
}

export function queueClient(transport: Transport, base: () => string, userUrl: () => Promise<string>): QueueClient {
  /** Bulk-replace support per service base URL. */
  const support = new Map<string, boolean>();
  const queueUrl = async (kind: QueueKind) => `${await userUrl()}/queues/${kind}`;

  const post = async (kind: QueueKind, form: Record<string, string>, etag: string): Promise<QueueWrite> => {
    const res = await transport.request({
      method: 'POST',
      url: await queueUrl(kind),
      form,
      ifMatch: etag,
      level: 'protected',
    });
    return writeOf(res, etag);
  };

  return {
    async queue(kind, opts) {
      const view = opts?.view ?? 'all';
      const url = `${await queueUrl(kind)}${view === 'all' ? '' : `/${view}`}`;
      const req = {
        url,
        query: pagingQuery(opts),
        level: 'protected' as const,
        ...(opts?.signal ? { signal: opts.signal } : {}),
      };
      return readParsed(transport, req, (res) => parseQueue(res.body, kind, view, res.headers));
    },
    queueAdd(kind, ref, etag, opts) {
      const form: Record<string, string> = { title_ref: ref };
      if (opts?.position !== undefined) form.position = String(opts.position);
      if (opts?.format && kind === 'disc') form.format = opts.format;
      return post(kind, form, etag);
    },
    queueMove(kind, ref, position, etag) {
      return post(kind, { title_ref: ref, position: String(position) }, etag);
    },
    async queueRemove(itemRef, etag) {
      const res = await transport.request({ method: 'DELETE', url: itemRef, ifMatch: etag, level: 'protected' });
      return writeOf(res, etag);
    },
    async queueReplace(kind, refs, etag, formats) {
      const form: Record<string, string> = {};
      refs.forEach((ref, i) => {
        form[`title_ref[${i + 1}]`] = ref;
        const f = formats?.[i];
        if (f && kind === 'disc') form[`format[${i + 1}]`] = f;
      });
      try {
        const res = await transport.request({
          method: 'PUT',
          url: await queueUrl(kind),
          form,
          ifMatch: etag,
          level: 'protected',
        });
        support.set(base(), true);
        return writeOf(res, etag);
      } catch (error) {
        if (error instanceof ServiceError && error.appError.status === 304) {
          support.set(base(), true);
          return writeOf({ status: 304, headers: {}, body: '', fromCache: false }, etag);
        }
        if (isUnsupported(error)) support.set(base(), false);
        else if (error instanceof ServiceError && error.appError.status !== undefined && error.appError.status < 500)
          support.set(base(), true);
        throw error;
      }
    },
    bulkReplaceSupport() {
      return support.get(base());
    },
  };
}
