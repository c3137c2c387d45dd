import type { User } from '../../../shared/models.ts';
import type { Transport } from '../types.ts';
import {
  parseCurrentUserLink,
  parseRoot,
  parseUser,
  rootName,
  userFromNode,
  type UserWithLinks,
} from '../xml/index.ts';
import { accountClient, type AccountClient } from './account.ts';
import { catalogClient, type CatalogClient } from './catalog.ts';
import { queueClient, type QueueClient } from './queue.ts';

/**
 * The resource client: the service's resources as shared/models.ts values, over a Transport
 * (which signs, caches and turns failures into ServiceError). It remembers the signed-in user's
 * id (learnt from /users/current, or given by whoever completed sign-in) per service base URL.
 */
export interface ClientOptions {
  /** The active profile's base URL (no trailing slash needed). */
  baseUrl: () => string;
}

export interface UserClient {
  /** GET /users/current?expand=user (following the link when the service does not inline it). */
  currentUser(): Promise<User>;
  /** The remembered user id for the current base URL, or null. */
  userId(): string | null;
  /** Sets (e.g. from the access-token answer's `user_id`) or forgets (null: sign-out) the user. */
  setUser(id: string | null): void;
}

export type Client = CatalogClient & QueueClient & AccountClient & UserClient;

export function createClient(transport: Transport, opts: ClientOptions): Client {
  const base = () => opts.baseUrl().replace(/\/+$/, '');
  let known: { base: string; id: string; href: string } | null = null;
  let pending: Promise<User> | null = null;

  const remember = (u: UserWithLinks): User => {
    known = { base: base(), id: u.user.id, href: u.href ?? `${base()}/users/${encodeURIComponent(u.user.id)}` };
    return u.user;
  };

  const fetchCurrent = async (): Promise<User> => {
    const res = await transport.request({
      url: `${base()}/users/current`,
      query: { expand: 'user' },
      level: 'protected',
    });
    try {
      return remember(parseUser(res.body));
    } catch (error) {
      // A service without the `expand=user` extension: follow the link.
      if (rootName(res.body) !== 'resource') throw error;
      const href = parseCurrentUserLink(res.body);
      const user = await transport.request({ url: href, level: 'protected' });
      return remember(userFromNode(parseRoot(user.body, 'user'), href));
    }
  };

  const users: UserClient = {
    currentUser() {
      // Concurrent callers share one request.
      pending ??= fetchCurrent().finally(() => {
        pending = null;
      });
      return pending;
    },
    userId() {
      return known && known.base === base() ? known.id : null;
    },
    setUser(id) {
      known = id === null ? null : { base: base(), id, href: `${base()}/users/${encodeURIComponent(id)}` };
    },
  };

  /** The user's URL, asking the service who is signed in when not yet known for this base URL. */
  const userUrl = async (): Promise<string> => {
    if (!known || known.base !== base()) await users.currentUser();
    return known!.href;
  };

  return {
    ...catalogClient(transport, base),
    ...queueClient(transport, base, userUrl),
    ...accountClient(transport, userUrl),
    ...users,
  };
}
