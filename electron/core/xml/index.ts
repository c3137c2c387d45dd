/**
 * The xml room's door: the service's POX answers as shared/models.ts values (parse.ts: the parser,
 * the tree helpers and the small mappers; titles.ts; user.ts: queues, ratings, history). Other
 * rooms import only this file.
 */
export {
  attr,
  etagFromHeader,
  links,
  ownText,
  text,
  findLink,
  kids,
  parseAutocomplete,
  parseCategories,
  parseCurrentUserLink,
  parseRoot,
  parseStatus,
  parseUser,
  rootName,
  userFromNode,
  type Link,
  type Status,
  type UserWithLinks,
  type XNode,
} from './parse.ts';
export {
  parseFilmography,
  parsePeoplePage,
  parsePerson,
  parseTitle,
  parseTitlePage,
  titleDocument,
  type PersonDocument,
} from './titles.ts';
export {
  createdQueueItems,
  parseAtHome,
  parseQueue,
  parseRatings,
  parseRatingsPage,
  parseRecommendations,
  parseRentalHistory,
  parseTitleStates,
  ratingItem,
  ratingItemIds,
} from './user.ts';
