import type { FastifyInstance } from 'fastify';
import { SCHEMA_BASE } from '../../../shared/protocol/index.ts';
import type { ServiceContext } from '../../context.ts';
import { represent } from '../../http/represent.ts';
import { resource, subscriber } from '../../http/route.ts';
import { el } from '../../xml/node.ts';
import { link } from '../../xml/links.ts';
import { userUrl } from '../../xml/user.ts';

/** The subscriber's feeds: (rel suffix, path under /users/UID, title). */
const FEEDS: Array<[string, string, string]> = [
  ['queues.instant', 'queues/instant', 'instant queue'],
  ['queues.disc', 'queues/disc', 'disc queue'],
  ['at_home', 'at_home', 'at home'],
  ['recommendations', 'recommendations', 'recommendations'],
  ['rental_history', 'rental_history', 'rental history'],
  ['rental_history.watched', 'rental_history/watched', 'watched'],
  ['rental_history.shipped', 'rental_history/shipped', 'shipped'],
  ['rental_history.returned', 'rental_history/returned', 'returned'],
];

/**
 * `/users/UID/feeds`: a link per Atom feed. Each href carries the user's `feed_token` and the
 * consumer key, so a feed reader can poll it with no OAuth signature (CONTRACT.md §3).
 */
export function registerFeeds(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/feeds', {
    GET: {
      auth: 'protected',
      user: true,
      handler: async (req, reply, ctx) => {
        const user = subscriber(ctx);
        const query = new URLSearchParams({
          feed_token: user.feed_token,
          oauth_consumer_key: ctx.auth!.consumer.key,
          output: 'atom',
        });
        const base = userUrl(svc.baseUrl, user.id);
        return represent(
          req,
          reply,
          el(
            'resource',
            null,
            FEEDS.map(([relName, path, title]) =>
              link(`${base}/${path}?${query.toString()}`, `${SCHEMA_BASE}feed.${relName}`, title),
            ),
          ),
        );
      },
    },
  });
}
