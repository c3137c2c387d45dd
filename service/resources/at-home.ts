import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { checkStart, pagingOf } from '../http/params.ts';
import { represent } from '../http/represent.ts';
import { resource } from '../http/route.ts';
import { readHistory } from '../store/history.ts';
import { el, textEl } from '../xml/node.ts';
import { pagerElements } from '../xml/pager.ts';
import { renderRentals, rentalAtom, updatedMinOf } from './rental-history.ts';
import { userOf } from './users.ts';

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
      feed: true,
      handler: async (req, reply, ctx) => {
        const user = await userOf(svc, req, ctx);
        const updatedMin = updatedMinOf(ctx);
        const paging = pagingOf(req, 500);
        const { total, rentals } = await readHistory(svc.db, user.id, 'at_home', { updatedMin, ...paging });
        checkStart(paging, total);
        const rendered = await renderRentals(svc, ctx, rentals, 'at_home_item', (r) => [
          textEl('shipped_date', r.shipped_date!),
          textEl('estimated_arrival_date', r.shipped_date! + MAIL_DAYS * 86_400),
        ]);
        const self = `${svc.baseUrl}/users/${user.id}/at_home`;
        const root = el(
          'at_home',
          null,
          textEl('url_template', `${self}?{-join|&|start_index|max_results|updated_min|expand}`),
          pagerElements(total, paging),
          rendered.map((x) => x.element),
        );
        return represent(req, reply, root, () => rentalAtom(root, rendered, { title: `${user.first_name}'s discs at home`, self, now: svc.now() }));
      },
    },
  });
}
