import type { FastifyInstance } from 'fastify';
import { registerAtHome } from './at-home.ts';
import { registerFeeds } from './feeds.ts';
import { registerLists } from './lists.ts';
import { registerRatings } from './ratings.ts';
import { registerRecommendations } from './recommendations.ts';
import { registerRentalHistory } from './rental-history.ts';
import { registerTitleStates } from './title-states.ts';
import { registerUsers } from './users.ts';

/** A subscriber's routes (user, ratings, recommendations, title states, feeds, history, at home, lists), encapsulated. */
export function subscriberPlugin(app: FastifyInstance, _options: object, done: (err?: Error) => void): void {
  const svc = app.svc;
  registerUsers(app, svc);
  registerRatings(app, svc);
  registerRecommendations(app, svc);
  registerTitleStates(app, svc);
  registerFeeds(app, svc);
  registerRentalHistory(app, svc);
  registerAtHome(app, svc);
  registerLists(app, svc);
  done();
}
