import {
  createConsumer,
  findConsumer,
  listConsumers,
  revokeConsumer,
  setConsumerQuota,
} from '../store/oauth/consumers.ts';
import type { Db } from '../store/db.ts';
import { fail, options, usage } from './options.ts';
import { runUsersCommand } from './users.ts';
import { runCatalogCommand } from './catalog.ts';
import { runSeedCommand, SEED_USAGE } from './seed.ts';

/** Operator commands; returns the process exit code. */
export async function runCommand(db: Db, args: string[]): Promise<number> {
  const [group, action, ...rest] = args;
  const opts = options(rest);
  if (group === 'users') return runUsersCommand(db, action, opts);
  if (group === 'catalog') return runCatalogCommand(db, action, opts);
  if (group === 'consumers' && action === 'add') {
    const name = opts.get('--name');
    if (!name)
      return usage(
        'consumers add --name <name> [--legacy] [--callback-origin https://app.example] [--per-second N] [--per-day N] [--json]',
      );
    const callbackOrigin = originOption(opts.get('--callback-origin'));
    const c = await createConsumer(db, {
      name,
      legacy: opts.has('--legacy'),
      callbackOrigin,
      perSecond: budget(opts.get('--per-second'), null),
      perDay: budget(opts.get('--per-day'), null),
    });
    console.log(
      opts.has('--json')
        ? JSON.stringify({ key: c.key, secret: c.secret })
        : `consumer "${c.name}"\nkey: ${c.key}\nsecret: ${c.secret}`,
    );
    return 0;
  }
  if (group === 'consumers' && action === 'list') {
    const all = await listConsumers(db);
    if (opts.has('--json')) console.log(JSON.stringify(all.map(({ secret: _secret, ...c }) => c)));
    else for (const c of all) console.log(`${c.key}  ${c.revoked ? 'revoked' : 'active '}  ${c.name}`);
    return 0;
  }
  if (group === 'consumers' && action === 'revoke') {
    const key = opts.positional[0];
    if (!key) return usage('consumers revoke <key>');
    if (!(await revokeConsumer(db, key))) return fail(`no consumer with key ${key}`);
    console.log(`revoked ${key}`);
    return 0;
  }
  if (group === 'consumers' && action === 'quota') {
    const key = opts.positional[0];
    if (!key) return usage('consumers quota <key> [--per-second N|default] [--per-day N|default]');
    const current = await findConsumer(db, key);
    if (!current) return fail(`no consumer with key ${key}`);
    // A budget not given keeps its value; `default` returns it to the service default (null).
    const perSecond = budget(opts.get('--per-second'), current.per_second);
    const perDay = budget(opts.get('--per-day'), current.per_day);
    if (!(await setConsumerQuota(db, key, perSecond, perDay))) return fail(`no consumer with key ${key}`);
    const show = (n: number | null) => (n === null ? 'default' : String(n));
    console.log(`quota for ${key}: ${show(perSecond)} per second, ${show(perDay)} per day`);
    return 0;
  }
  if (group === 'seed' && action === '--synthetic') return runSeedCommand(db, opts);
  return usage(
    `consumers add|list|revoke|quota …, users add|list|passwd|tokens|revoke-tokens|rotate-feed …, catalog availability …, ${SEED_USAGE}`,
  );
}

/** `--callback-origin`: an http(s) origin (scheme, host, port), or absent. */
function originOption(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/+$/, '')) {
    throw new Error(
      `--callback-origin must be an origin such as https://app.example (no path): ${JSON.stringify(value)}`,
    );
  }
  return url.origin;
}

/** A `--per-second` / `--per-day` value: N, or `default` (null); `otherwise` when the flag is absent. */
function budget(value: string | undefined, otherwise: number | null): number | null {
  if (value === undefined) return otherwise;
  if (value === 'default') return null;
  const n = Number(value);
  // '' (a flag with no value) must not read as 0, which refuses every request.
  if (value.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new Error(`not a non-negative integer or "default": ${JSON.stringify(value)}`);
  return n;
}
