import type { FastifyInstance } from 'fastify';
import { registerCatalog } from './catalog.ts';
import { registerCategories } from './categories.ts';
import { registerImages } from './images.ts';
import { registerPeople } from './people.ts';
import { registerTitleIndex } from './title-index.ts';
import { registerTitleMatch } from './title-match.ts';
import { registerTitles } from './titles.ts';
import { registerWebPages } from './web-pages.ts';

/** The catalog's routes (search, titles, people, index, categories, images, web pages), encapsulated. */
export function catalogPlugin(app: FastifyInstance, _options: object, done: (err?: Error) => void): void {
  const svc = app.svc;
  registerCatalog(app, svc);
  registerTitles(app, svc);
  registerTitleIndex(app, svc);
  registerTitleMatch(app, svc);
  registerPeople(app, svc);
  registerCategories(app, svc);
  registerImages(app, svc);
  registerWebPages(app, svc);
  done();
}
