import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../context.ts';
import { resource } from '../../http/route.ts';
import { textEl } from '../../xml/node.ts';
import { listRentals } from './rental-history.ts';

/** Discs travel by first-class mail: expected the day after shipping. */
const MAIL_DAYS = 1;

/**
 * `/users/UID/at_home`: the discs shipped and not yet returned, most recently shipped first, as
 * `at_home_item`s (the title's id and fields, the format sent, `shipped_date` and
 * `estimated_arrival_date`). Paged; a feed (Atom on request, readable with the feed token).
 */
export function registerAtHome(app: FastifyInstance, svc: ServiceContext): void {
  resource(app, svc, '/users/:uid/at_home', {
    GET: {
      auth: 'protected',
      user: true,
      feed: true,
      handler: (req, reply, ctx) =>
        listRentals(svc, req, reply, ctx, {
          view: 'at_home',
          name: 'at_home',
          itemName: 'at_home_item',
          dates: (r) => [
            textEl('shipped_date', r.shipped_date!),
            textEl('estimated_arrival_date', r.shipped_date! + MAIL_DAYS * 86_400),
          ],
          of: (user) => ({
            self: `${svc.baseUrl}/users/${user.id}/at_home`,
            title: `${user.first_name}'s discs at home`,
          }),
        }),
    },
  });
}
