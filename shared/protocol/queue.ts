/**
 * The most entries a queue holds (CONTRACT.md §3): the service refuses an instant queue past it,
 * and the app reads, moves, replaces and imports within it.
 */
export const QUEUE_LIMIT = 500;
