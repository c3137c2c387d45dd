/**
 * The client room's door: the service's resources as shared/models.ts values over a Transport
 * (client.ts composes catalog.ts, queue.ts and account.ts). Other rooms import only this file.
 */
export { createClient, type Client, type ClientOptions, type UserClient } from './client.ts';
export type { CatalogClient, CategoryScheme, Paging, TitleOptions } from './catalog.ts';
export { isUnsupported, type AddOptions, type QueueClient, type QueueWrite } from './queue.ts';
export type { AccountClient, HistoryView, RatingWrite } from './account.ts';
