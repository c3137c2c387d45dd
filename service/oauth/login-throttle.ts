/**
 * Wrong passwords on the sign-in page (issue 10, defect 3): each guess costs an scrypt, so guesses
 * are slowed per account and capped per request token, and a throttled attempt is refused before
 * any password is checked. Counters live in the process: with several nodes an attacker gains at
 * most a factor of the node count (docs/RELIABILITY.md).
 */
export interface ThrottlePolicy {
  /** Failures an account may have before it must wait between attempts. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones, doubled by each further one, in seconds. */
  firstWaitSeconds: number;
  maxWaitSeconds: number;
  /** Wrong passwords one request token survives; the next one ends it. */
  perTokenFailures: number;
  /** Quiet time after which an account's failures are forgotten. */
  forgetAfterSeconds: number;
}

export const LOGIN_POLICY: ThrottlePolicy = {
  freeFailures: 3,
  firstWaitSeconds: 1,
  maxWaitSeconds: 300,
  perTokenFailures: 10,
  forgetAfterSeconds: 15 * 60,
};

interface Failures {
  count: number;
  last: number;
}

/** Entries kept before quiet ones are dropped (a guesser cycling logins cannot grow memory without end). */
const MAX_ENTRIES = 10_000;

export class LoginThrottle {
  private readonly accounts = new Map<string, Failures>();
  private readonly tokens = new Map<string, Failures>();

  constructor(private readonly policy: ThrottlePolicy = LOGIN_POLICY) {}

  /** Seconds the account must still wait before its password is checked again; 0 when it may try. */
  waitSeconds(login: string, now: number): number {
    const entry = this.live(this.accounts, accountKey(login), now);
    if (!entry || entry.count < this.policy.freeFailures) return 0;
    const wait = Math.min(
      this.policy.firstWaitSeconds * 2 ** (entry.count - this.policy.freeFailures),
      this.policy.maxWaitSeconds,
    );
    return Math.max(0, entry.last + wait - now);
  }

  /** Records a wrong password; true when the request token has now had too many and must end. */
  fail(login: string, token: string, now: number): boolean {
    this.live(this.accounts, accountKey(login), now);
    this.live(this.tokens, token, now);
    bump(this.accounts, accountKey(login), now);
    const tokenFailures = bump(this.tokens, token, now);
    this.prune(now);
    return tokenFailures >= this.policy.perTokenFailures;
  }

  succeed(login: string, token: string): void {
    this.accounts.delete(accountKey(login));
    this.tokens.delete(token);
  }

  private live(map: Map<string, Failures>, key: string, now: number): Failures | undefined {
    const entry = map.get(key);
    if (entry && now - entry.last > this.policy.forgetAfterSeconds) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(now: number): void {
    for (const map of [this.accounts, this.tokens]) {
      if (map.size <= MAX_ENTRIES) continue;
      for (const [key, entry] of map) if (now - entry.last > this.policy.forgetAfterSeconds) map.delete(key);
    }
  }
}

function bump(map: Map<string, Failures>, key: string, now: number): number {
  const entry = map.get(key) ?? { count: 0, last: now };
  entry.count++;
  entry.last = now;
  map.set(key, entry);
  return entry.count;
}

/** Logins compare as the store compares them. */
function accountKey(login: string): string {
  return login.trim().toLowerCase();
}
