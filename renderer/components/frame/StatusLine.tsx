import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { clockWords } from '../error-words.ts';
import { useRefusedEdits } from '../../queries/queue-refused.ts';
import { RefusedEditsDialog, refusedSummary } from './RefusedEdits.tsx';
import { useNavigation } from '../../router.ts';
import {
  statusKeys,
  useConflictNotice,
  useConnectivity,
  useElsewhereNotice,
  useQuotaNotice,
  useServiceNotice,
  type ConflictNotice,
  type ElsewhereNotice,
  type QuotaNotice,
  type ServiceNotice,
} from '../../queries/status.ts';
import { countOf } from '../../words.ts';

/** How long a conflict notice stays before it fades from the status line. */
const CONFLICT_SHOWN_MS = 12_000;
/** How long "changed on another device" stays. */
const ELSEWHERE_SHOWN_MS = 10_000;
const QUEUE_WORDS: Record<ElsewhereNotice['kind'], string> = { instant: 'Instant Queue', disc: 'Disc Queue' };
/** How long "Service is back" stays. */
const SERVICE_BACK_SHOWN_MS = 8_000;

/**
 * The one status line of the app: offline and pending edits, the quota wait with its retry time,
 * a queue conflict resolved. Never two banners saying the same thing.
 */
export function StatusLine() {
  const refused = useRefusedEdits();
  const [reviewing, setReviewing] = useState(false);
  const connectivity = useConnectivity();
  const quota = useActiveQuota();
  const conflict = useRecentConflict();
  const service = useRecentServiceNotice();
  const elsewhere = useRecentElsewhere();
  const messages: { key: string; tone: 'warning' | 'danger' | 'info'; text: string }[] = [];
  if (service?.state === 'restarting')
    messages.push({
      key: 'service',
      tone: 'danger',
      text: 'Service stopped – restarting… Your edits are kept and will be sent when it’s back.',
    });
  else if (service?.state === 'back') messages.push({ key: 'service', tone: 'info', text: 'Service is back.' });
  if (!connectivity.online && service?.state !== 'restarting') {
    messages.push({
      key: 'offline',
      tone: 'danger',
      text: 'Offline: couldn’t reach the service. Your edits are kept and will be sent when it’s back.',
    });
  }
  if (connectivity.pendingEdits > 0) {
    messages.push({
      key: 'pending',
      tone: 'warning',
      text: `${countOf(connectivity.pendingEdits, 'edit')} waiting to be sent.`,
    });
  }
  if (quota)
    messages.push({
      key: 'quota',
      tone: 'warning',
      text: `The service’s request limit is reached: ${quotaWords(quota)}`,
    });
  if (conflict) messages.push({ key: 'conflict', tone: 'info', text: conflict.message });
  if (elsewhere)
    messages.push({
      key: 'elsewhere',
      tone: 'info',
      text: `Your ${QUEUE_WORDS[elsewhere.kind]} changed on another device.`,
    });
  return (
    <>
      <footer className="status-line" role="status" aria-live="polite" aria-label="Status">
        {refused.length > 0 && (
          <span className="status-message danger" data-status="refused">
            {refusedSummary(refused)}
            <button type="button" className="button small" onClick={() => setReviewing(true)}>
              Review {refused.length === 1 ? 'edit' : 'edits'}
            </button>
          </span>
        )}
        {messages.length === 0 && refused.length === 0 ? (
          <span className="status-quiet">Ready</span>
        ) : (
          messages.map((m) => (
            <span key={m.key} className={`status-message ${m.tone}`} data-status={m.key}>
              {m.text}
            </span>
          ))
        )}
      </footer>
      <RefusedEditsDialog open={reviewing} onClose={() => closeReview(setReviewing)} />
    </>
  );
}

/** Closes the review; when its opener has gone (nothing left), focus goes to the content, not the page body. */
function closeReview(setReviewing: (open: boolean) => void): void {
  setReviewing(false);
  requestAnimationFrame(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const content = document.getElementById('content');
    content?.setAttribute('tabindex', '-1');
    content?.focus();
  });
}

function quotaWords(quota: QuotaNotice): string {
  return quota.retryAfter > 0 ? `you can try again at ${clockWords(quota.until)}.` : 'try again in a little while.';
}

/** The quota notice until its retry time passes (then cleared from the cache). */
function useActiveQuota(): QuotaNotice | null {
  const client = useQueryClient();
  const quota = useQuotaNotice();
  useEffect(() => {
    if (!quota) return;
    const timer = setTimeout(
      () => client.setQueryData(statusKeys.quota(), null),
      Math.max(0, quota.until - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [client, quota]);
  return quota;
}

/** The service restarting, for as long as it does; "back" for a few seconds after. */
function useRecentServiceNotice(): ServiceNotice | null {
  const notice = useServiceNotice();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (notice?.state !== 'back') return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, notice.at + SERVICE_BACK_SHOWN_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [notice]);
  return notice && (notice.state === 'restarting' || notice.at + SERVICE_BACK_SHOWN_MS > now) ? notice : null;
}

/** Another device changed the queue on screen: said for a few seconds (the rows show what changed). */
function useRecentElsewhere(): ElsewhereNotice | null {
  const { screen } = useNavigation().location;
  const notice = useElsewhereNotice();
  const onScreen = screen.name === 'queue' && notice?.kind === screen.kind ? notice : null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!onScreen) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, onScreen.at + ELSEWHERE_SHOWN_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [onScreen]);
  return onScreen && onScreen.at + ELSEWHERE_SHOWN_MS > now ? onScreen : null;
}

/**
 * The latest conflict notice for a few seconds after it came; not while that queue's own screen is
 * open, which shows it above the list (one message in one place).
 */
function useRecentConflict(): ConflictNotice | null {
  const { screen } = useNavigation().location;
  const notice = useConflictNotice();
  const conflict = screen.name === 'queue' && notice?.kind === screen.kind ? null : notice;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!conflict) return;
    const left = conflict.at + CONFLICT_SHOWN_MS - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left);
    return () => clearTimeout(timer);
  }, [conflict]);
  return conflict && conflict.at + CONFLICT_SHOWN_MS > now ? conflict : null;
}
