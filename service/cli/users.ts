import { fail, usage, type CommandOptions } from './options.ts';
import type { Db } from '../store/db.ts';
import { listAccessTokens, revokeUserTokens } from '../store/oauth/tokens.ts';
import { createUser, findUserByLogin, listUsers, rotateFeedToken, setPassword } from '../store/subscriber/users.ts';

/** At least this long: a subscriber password an operator sets is not a PIN. */
const MIN_PASSWORD = 8;

/** `users add|list|passwd|tokens|revoke-tokens|rotate-feed`: the subscriber accounts. */
export async function runUsersCommand(db: Db, action: string | undefined, opts: CommandOptions): Promise<number> {
  switch (action) {
    case 'add':
      return addUser(db, opts);
    case 'list':
      return list(db, opts);
    case 'passwd':
      return passwd(db, opts);
    case 'tokens':
      return tokens(db, opts);
    case 'revoke-tokens':
      return revokeTokens(db, opts);
    case 'rotate-feed':
      return rotateFeed(db, opts);
    default:
      return usage('users add|list|passwd|tokens|revoke-tokens|rotate-feed …');
  }
}

async function addUser(db: Db, opts: CommandOptions): Promise<number> {
  const [login, password, first, last] = ['--login', '--password', '--first', '--last'].map(
    (k) => opts.get(k)?.trim() ?? '',
  );
  if (!login || !password || !first || !last)
    return usage('users add --login L --password P --first F --last N [--json]');
  if (password.length < MIN_PASSWORD) return fail(`the password must be at least ${MIN_PASSWORD} characters`);
  if (await findUserByLogin(db, login)) return fail(`a subscriber with login ${login} already exists`);
  const user = await createUser(db, { login, password, firstName: first, lastName: last });
  console.log(
    opts.has('--json') ? JSON.stringify({ user_id: user.id }) : `subscriber ${user.login}\nuser_id: ${user.id}`,
  );
  return 0;
}

async function list(db: Db, opts: CommandOptions): Promise<number> {
  const users = await listUsers(db);
  if (opts.has('--json')) {
    console.log(
      JSON.stringify(
        users.map((u) => ({
          user_id: u.id,
          login: u.login,
          first_name: u.first_name,
          last_name: u.last_name,
          created: u.created,
        })),
      ),
    );
  } else {
    for (const u of users) console.log(`${u.id}  ${u.login}  ${u.first_name} ${u.last_name}`);
  }
  return 0;
}

async function passwd(db: Db, opts: CommandOptions): Promise<number> {
  const login = opts.positional[0];
  const password = opts.get('--password') ?? '';
  if (!login || !password) return usage('users passwd <login> --password P');
  if (password.length < MIN_PASSWORD) return fail(`the password must be at least ${MIN_PASSWORD} characters`);
  const user = await findUserByLogin(db, login);
  if (!user || !(await setPassword(db, user.id, password))) return fail(`no subscriber with login ${login}`);
  console.log(`password changed for ${user.login}`);
  return 0;
}

async function tokens(db: Db, opts: CommandOptions): Promise<number> {
  const login = opts.positional[0];
  if (!login) return usage('users tokens <login> [--json]');
  const user = await findUserByLogin(db, login);
  if (!user) return fail(`no subscriber with login ${login}`);
  const rows = await listAccessTokens(db, user.id);
  if (opts.has('--json')) console.log(JSON.stringify(rows.map(({ secret: _secret, ...t }) => t)));
  else
    for (const t of rows)
      console.log(
        `${t.token}  ${t.revoked ? 'revoked' : 'active '}  ${t.consumer_key}  ${new Date(t.created * 1000).toISOString()}`,
      );
  return 0;
}

async function revokeTokens(db: Db, opts: CommandOptions): Promise<number> {
  const login = opts.positional[0];
  if (!login) return usage('users revoke-tokens <login>');
  const user = await findUserByLogin(db, login);
  if (!user) return fail(`no subscriber with login ${login}`);
  const count = await revokeUserTokens(db, user.id);
  console.log(`revoked ${count} access token${count === 1 ? '' : 's'} of ${user.login}`);
  return 0;
}

async function rotateFeed(db: Db, opts: CommandOptions): Promise<number> {
  const login = opts.positional[0];
  if (!login) return usage('users rotate-feed <login>');
  const user = await findUserByLogin(db, login);
  if (!user) return fail(`no subscriber with login ${login}`);
  await rotateFeedToken(db, user.id);
  console.log(`feed token of ${user.login} replaced: earlier feed URLs no longer work`);
  return 0;
}
