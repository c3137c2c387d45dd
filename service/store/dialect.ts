/** The two databases the service runs on. */
export type DialectName = 'sqlite' | 'postgres';
