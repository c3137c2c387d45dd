import type { Client } from 'pg';

/** The channel every change row is announced on (migrations/011-changes.ts). */
export const CHANGES_CHANNEL = 'marquee_changes';

/** A node's subscription to change announcements; `close` ends it. */
export interface ChangeListener {
  close(): Promise<void>;
}

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/**
 * LISTENs on PostgreSQL's change channel over a connection of its own (a pooled one would be handed
 * to other queries) and calls `onWake` per announcement and after every (re)connect, when
 * announcements may have been missed. A lost connection is opened again.
 */
export async function listenForChanges(connectionString: string, onWake: () => void): Promise<ChangeListener> {
  const { default: pg } = await import('pg');
  let closed = false;
  let client: Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString });
    c.on('notification', () => onWake());
    c.on('error', () => undefined);
    c.on('end', () => {
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), RECONNECT_MS);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (closed) return void (await c.end().catch(() => undefined));
    client = c;
    onWake();
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
