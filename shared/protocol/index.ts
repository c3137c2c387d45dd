export * from './rels.ts';
export * from './categories.ts';
export * from './status.ts';
export * from './expand.ts';
export * from './titles.ts';
export * from './queue.ts';
