import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';
import { up as catalog } from './001-catalog.ts';
import { up as subscribers } from './003-subscribers.ts';
import { up as tokens } from './002-tokens.ts';
import { up as queues } from './005-queues.ts';
import { up as quota } from './004-quota.ts';
import { up as ratings } from './006-ratings.ts';
import { up as history } from './007-history.ts';
import { up as indexes } from './008-indexes.ts';
import { up as signInSecurity } from './009-sign-in-security.ts';
import { up as boundedGuard } from './010-bounded-guard.ts';
import { up as changes } from './011-changes.ts';
import { up as queueChangesUnserialised } from './012-queue-changes-unserialised.ts';

/** Every migration in order; names sort in the order they run. */
export const migrations: Record<string, (db: Kysely<any>, dialect: DialectName) => Promise<void>> = {
  '001-catalog': catalog,
  '002-tokens': tokens,
  '003-subscribers': subscribers,
  '004-quota': quota,
  '005-queues': queues,
  '006-ratings': ratings,
  '007-history': history,
  '008-indexes': indexes,
  '009-sign-in-security': signInSecurity,
  '010-bounded-guard': boundedGuard,
  '011-changes': changes,
  '012-queue-changes-unserialised': queueChangesUnserialised,
};
