import { join } from 'node:path';
import { parseQueue, parseRatings } from '../../electron/core/xml/index.ts';
import type { QueueItem, Rating, UserRating } from '../../shared/models.ts';
import { DEMO_LOGIN } from '../../service/data/demo/subscriber-account.ts';
import { openDb } from '../../service/store/db.ts';
import { createConsumer } from '../../service/store/oauth/consumers.ts';
import { issueAccessToken } from '../../service/store/oauth/tokens.ts';
import { findUserByLogin } from '../../service/store/subscriber/users.ts';
import { authHeader, type Credentials } from '../helpers/oauth-client.ts';
import { QUEUE_AS_JSON, queueFromJson } from '../helpers/queue-json.ts';

/**
 * The end-to-end tests' own line to the service, "another device": a subscriber (the demo one unless
 * named) with a consumer and access token of its own (deviceCredentials), and signed requests that
 * read and change the queue directly, to set up and to check what the app did.
 */
export interface Subscriber {
  /** The available order of a queue on the service, as title refs. */
  order(kind?: 'instant' | 'disc'): Promise<string[]>;
  /** The saved (not yet released) titles of a queue on the service, as title refs. */
  saved(kind?: 'instant' | 'disc'): Promise<string[]>;
  /** Adds a title to the end of a queue (or to its saved part when it starts later). */
  add(ref: string, kind?: 'instant' | 'disc'): Promise<void>;
  /** Every entry of a queue on the service, saved ones (position null) included. */
  entries(kind?: 'instant' | 'disc'): Promise<{ ref: string; position: number | null }[]>;
  /** Every entry of a queue as the app's models, with the title, its availability words and format. */
  items(kind?: 'instant' | 'disc'): Promise<QueueItem[]>;
  /** An atomic PUT of the available order (unconditional: another device does not know our ETag). */
  replace(refs: readonly string[], kind?: 'instant' | 'disc'): Promise<void>;
  /**
   * Removes every entry of a queue, saved ones included: for tests written for a subscriber who
   * starts with nothing queued (the demo subscriber now starts with about forty titles).
   */
  clear(kind?: 'instant' | 'disc'): Promise<void>;
  /** Fills the queue with `refs`: one atomic PUT, or one add of them all where the service has no PUT. */
  fill(refs: readonly string[]): Promise<void>;
  /** One title to a position (unconditional). */
  move(ref: string, position: number, kind?: 'instant' | 'disc'): Promise<void>;
  /** Removes one title from a queue (its entry's URL, DELETE). */
  remove(ref: string, kind?: 'instant' | 'disc'): Promise<void>;
  /** Rates a title 1–5 (POST to the subscriber's actual ratings). */
  rate(ref: string, rating: number): Promise<void>;
  /** Predicted ratings of titles, by ref. */
  predicted(refs: readonly string[]): Promise<Map<string, number | null>>;
  /** The subscriber's own ratings of titles, by ref (null: not rated). */
  ratings(refs: readonly string[]): Promise<Map<string, UserRating | null>>;
}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function signedFetch(
  url: string,
  consumer: Credentials,
  token: Credentials | undefined,
  method = 'GET',
  form?: Record<string, string>,
): Promise<Response> {
  const headers: Record<string, string> = { authorization: authHeader(consumer, method, url, form ?? {}, token) };
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(url, {
    method,
    headers,
    ...(form ? { body: new URLSearchParams(form).toString().replace(/\+/g, '%20') } : {}),
  });
  if (res.status >= 400) throw new HttpStatusError(res.status, `${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** A request that waits out the consumer's per-second quota (403, Retry-After) instead of failing: for setup loops of many requests. */
async function paced<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (
        !(error instanceof HttpStatusError && error.status === 403 && /per second/i.test(error.message)) ||
        attempt >= 10
      )
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
  }
}

/**
 * The queue reads of "another device", spaced however often a test polls them (expect.poll asks
 * every 50 ms by default): 250 ms after a read, doubling while the reads keep coming up to one a
 * second, back to 250 ms after a pause. Each read of a 300-title queue costs the service and the
 * test worker real CPU: polled at full speed through a 300-move sort, the reads took the CPU the app
 * needed (and, on the app's own consumer, made its pacer meet per-second refusals in the middle of
 * what the test waits for: another device has a consumer of its own).
 */
const FIRST_GAP_MS = 250;
const MOST_GAP_MS = 1_000;

function politeReader<A extends unknown[], T>(read: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let next = 0;
  let gap = FIRST_GAP_MS;
  return async (...args) => {
    const now = Date.now();
    gap = now > next + MOST_GAP_MS ? FIRST_GAP_MS : Math.min(MOST_GAP_MS, gap * 2);
    const wait = next - now;
    next = Math.max(next, now) + gap;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return read(...args);
  };
}

/** Where another device reaches a service: its address, and its store (the data folder it serves). */
export interface ServiceStore {
  url: string;
  dataDir: string;
}

/** Another device's per-second budget: well above what a test's setup loops send (a cleared queue: one removal per entry). */
const ANOTHER_DEVICE_PER_SECOND = 1000;

/** Another device's own credentials on a service: its consumer, and an access token of the subscriber. */
export interface DeviceCredentials {
  consumer: Credentials;
  token: Credentials;
  userId: string;
}

/**
 * A consumer of another device's own (a per-second budget no setup loop or poll of a test reaches)
 * and an access token of the subscriber `login`, written to the service's store while it runs, as
 * its operator commands write there (an operator's store: the service's request guard stays its own).
 * Not signed in through the sign-in page: the app's own sign-ins in these tests go through that page.
 */
export async function deviceCredentials(dataDir: string, login: string): Promise<DeviceCredentials> {
  const db = await openDb({ sqlitePath: join(dataDir, 'marquee.sqlite') }, { admitsRequests: false });
  try {
    const user = await findUserByLogin(db, login);
    if (!user) throw new Error(`no subscriber ${login} in ${dataDir}`);
    const consumer = await createConsumer(db, { name: 'Another device', perSecond: ANOTHER_DEVICE_PER_SECOND });
    const token = await issueAccessToken(db, consumer.key, user.id);
    return { consumer, token: { key: token.token, secret: token.secret }, userId: user.id };
  } finally {
    await db.close();
  }
}

/** The demo subscriber (or `login`) as another device on `svc`: its own consumer and token (deviceCredentials). */
export async function anotherDevice(svc: ServiceStore, login = DEMO_LOGIN): Promise<Subscriber> {
  return subscriberAt(svc.url, await deviceCredentials(svc.dataDir, login));
}

/** Another device's line to the service at `url` (the same credentials work at any address of it). */
export function subscriberAt(url: string, { consumer, token, userId }: DeviceCredentials): Subscriber {
  const user = `${url}/users/${userId}`;
  const queueUrl = (kind: string) => `${user}/queues/${kind}`;
  /** Every entry of a queue: as JSON (`asJson`) for its entries alone, as XML for the app's models of them. */
  const readQueue = politeReader(async (kind: string, asJson: boolean) => {
    const address = `${queueUrl(kind)}?max_results=500${asJson ? `&${QUEUE_AS_JSON}` : ''}`;
    return (await signedFetch(address, consumer, token)).text();
  });
  const entriesOf = async (kind: string) => queueFromJson(await readQueue(kind, true)).entries;
  const replace = async (refs: readonly string[], kind = 'instant') => {
    const form = Object.fromEntries(refs.map((ref, i) => [`title_ref[${i + 1}]`, ref]));
    await signedFetch(queueUrl(kind), consumer, token, 'PUT', form);
  };

  const ratingsOf = async (refs: readonly string[]) => {
    const found: Rating[] = [];
    for (let i = 0; i < refs.length; i += 50) {
      const url = `${user}/ratings/title?title_refs=${encodeURIComponent(refs.slice(i, i + 50).join(','))}`;
      found.push(...parseRatings(await (await signedFetch(url, consumer, token)).text()));
    }
    return found;
  };

  return {
    async order(kind = 'instant') {
      return (await entriesOf(kind))
        .filter((e) => e.position !== null)
        .sort((a, b) => a.position! - b.position!)
        .map((e) => e.ref);
    },
    async saved(kind = 'instant') {
      return (await entriesOf(kind)).filter((e) => e.position === null).map((e) => e.ref);
    },
    async add(ref, kind = 'instant') {
      // Paced: setups add right after clear's burst of removals, within the same quota second.
      await paced(() => signedFetch(queueUrl(kind), consumer, token, 'POST', { title_ref: ref }));
    },
    async entries(kind = 'instant') {
      return (await entriesOf(kind)).map(({ ref, position }) => ({ ref, position }));
    },
    async items(kind = 'instant') {
      return parseQueue(await readQueue(kind, false), kind, 'all').items;
    },
    replace,
    async clear(kind = 'instant') {
      const body = await paced(() => readQueue(kind, true));
      // Last first: an available entry's URL holds its position, which a removal above it would shift.
      for (const item of queueFromJson(body).entries.reverse())
        await paced(() => signedFetch(item.itemRef, consumer, token, 'DELETE'));
    },
    async fill(refs) {
      try {
        // Paced: a fill usually follows clear's burst of removals.
        await paced(() => replace(refs));
      } catch (error) {
        if (!(error instanceof HttpStatusError && error.status === 405)) throw error;
        // Paced too: the 405 above came within the same second as clear's removals.
        await paced(() => signedFetch(queueUrl('instant'), consumer, token, 'POST', { title_ref: refs.join(',') }));
      }
    },
    async move(ref, position, kind = 'instant') {
      await signedFetch(queueUrl(kind), consumer, token, 'POST', { title_ref: ref, position: String(position) });
    },
    async remove(ref, kind = 'instant') {
      const item = (await entriesOf(kind)).find((e) => e.ref === ref);
      if (!item) throw new Error(`${ref} is not in the ${kind} queue`);
      await signedFetch(item.itemRef, consumer, token, 'DELETE');
    },
    async rate(ref, rating) {
      await signedFetch(`${user}/ratings/title/actual`, consumer, token, 'POST', {
        title_ref: ref,
        rating: String(rating),
      });
    },
    async predicted(refs) {
      return new Map((await ratingsOf(refs)).map((r) => [r.title.ref, r.predicted]));
    },
    async ratings(refs) {
      return new Map((await ratingsOf(refs)).map((r) => [r.title.ref, r.userRating]));
    },
  };
}
