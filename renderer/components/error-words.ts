import type { AppError } from '../../shared/models.ts';

/** What went wrong and what the person can do about it, in words (never a validator's message alone). */
export interface ErrorWords {
  headline: string;
  advice: string;
  /** What a button next to the words does, when one helps. */
  action: 'retry' | 'sign-in' | null;
}

/** When a wait of `seconds` from now ends: "14:05:30", or "Thu 00:00:00" when that is another day. */
export function retryTime(seconds: number, now = Date.now()): string {
  return clockWords(now + Math.max(0, seconds) * 1000, now);
}

export function clockWords(atMs: number, now = Date.now()): string {
  const at = new Date(atMs);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return at.toDateString() === new Date(now).toDateString()
    ? time
    : `${at.toLocaleDateString([], { weekday: 'short' })} ${time}`;
}

export function describeError(error: AppError): ErrorWords {
  switch (error.kind) {
    case 'offline':
      return {
        // The status line says "Offline" once for the whole app; this says what it means for this view.
        headline: 'This couldn’t load while the service is unreachable.',
        advice: /web host/i.test(error.message)
          ? error.message
          : 'Try again once it’s back; your queue edits are kept meanwhile.',
        action: 'retry',
      };
    case 'quota':
      return {
        headline: 'The service’s request limit is used up for now.',
        advice:
          error.retryAfter !== undefined
            ? `You can try again at ${retryTime(error.retryAfter)}.`
            : 'Try again in a little while.',
        action: error.retryAfter !== undefined && error.retryAfter > 60 ? null : 'retry',
      };
    case 'auth':
      if (error.status === 401 && /token/i.test(error.message) && /web host|printed/i.test(error.message)) {
        return {
          headline: error.message,
          advice: 'Open the address npm start printed: it carries this launch’s access token.',
          action: null,
        };
      }
      return { headline: 'Your sign-in is no longer valid.', advice: 'Sign in again to continue.', action: 'sign-in' };
    case 'not_found':
      return {
        headline: 'This is no longer in the catalog.',
        advice: 'It may have been removed; go back and pick another.',
        action: null,
      };
    case 'invalid':
      return { headline: 'Marquee couldn’t use that.', advice: invalidAdvice(error.message), action: null };
    case 'conflict':
      return {
        headline: 'Something changed meanwhile.',
        advice: 'Marquee reloaded the latest version; try once more.',
        action: 'retry',
      };
    case 'server':
      return {
        headline: 'The service had a problem.',
        advice: `Try again in a moment.${error.status ? ` (It answered ${error.status}.)` : ''}`,
        action: 'retry',
      };
  }
}

/**
 * An invalid-input message in words. The core's own messages already say what to fix; a schema's
 * message ("term: Too big: …<=500 characters") is turned into advice.
 */
function invalidAdvice(message: string): string {
  const field = /^([\w.]+):\s*(.*)$/s.exec(message);
  if (!field) return message;
  const detail = field[2]!;
  const most = /<=\s*(\d+)\s*characters/.exec(detail);
  if (most) return `Use at most ${most[1]} characters.`;
  const least = />=\s*(\d+)\s*characters/.exec(detail);
  if (least) return least[1] === '1' ? 'This can’t be empty.' : `Use at least ${least[1]} characters.`;
  if (/invalid url|must be http/i.test(detail)) return 'Enter a full web address starting with http:// or https://.';
  return detail;
}
