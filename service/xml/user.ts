import { SCHEMA_BASE, type ApiVersion } from '../../shared/protocol/index.ts';
import type { User } from '../model/user.ts';
import { el, textEl, type XmlElement } from './node.ts';
import { category, link } from './links.ts';

/** A user's links: (path under /users/UID, rel suffix, title). */
const USER_LINKS: Array<[string, string, string]> = [
  ['queues', 'queues', 'queues'],
  ['rental_history', 'rental_history', 'rental history'],
  ['recommendations', 'recommendations', 'recommendations'],
  ['title_states', 'title_states', 'title states'],
  ['ratings', 'ratings', 'ratings'],
  ['reviews', 'reviews', 'reviews'],
  ['at_home', 'at_home', 'at home'],
  ['feeds', 'feeds', 'feeds'],
  ['lists', 'lists', 'lists'],
];

export function userUrl(base: string, userId: string): string {
  return `${base}/users/${userId}`;
}

/**
 * A `user`: exactly user_id, first_name, last_name, nickname, can_instant_watch,
 * preferred_formats and links at v1.0 (old clients compare the set); v1.5 adds max_maturity_level.
 */
export function userElement(base: string, user: User, version: ApiVersion): XmlElement {
  const url = userUrl(base, user.id);
  return el(
    'user',
    null,
    textEl('user_id', user.id),
    textEl('first_name', user.first_name),
    textEl('last_name', user.last_name),
    textEl('nickname', user.nickname),
    textEl('can_instant_watch', user.can_instant_watch ? 'true' : 'false'),
    version === '1.5' && textEl('max_maturity_level', user.max_maturity_level),
    el(
      'preferred_formats',
      null,
      (JSON.parse(user.preferred_formats) as string[]).map((f) => category(base, 'title_formats', f)),
    ),
    USER_LINKS.map(([path, relName, title]) => link(`${url}/${path}`, `${SCHEMA_BASE}${relName}`, title)),
  );
}
