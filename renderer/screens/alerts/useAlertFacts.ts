import { useQueries, useQuery } from '@tanstack/react-query';
import { titlePath, type Alert } from '../../../shared/alerts.ts';
import type { TitleState } from '../../../shared/models.ts';
import { appErrorOf } from '../../queries/call.ts';
import { catalogQueries } from '../../queries/catalog.ts';
import { queueQueries } from '../../queries/queue.ts';
import { titleQueries } from '../../queries/title.ts';
import type { AlertFacts } from './alert-offers.ts';

/** The service answers at most this many titles' states at once. */
const STATES_AT_ONCE = 100;

/**
 * What is true now of the alerts' titles: both queues (the same cache entries the queue screen
 * keeps current) and the titles' states, read in pages of 100; for a title told gone, whether
 * the catalog still has it (its detail, the same cache entry the title panel opens). Returns each
 * alert's facts.
 */
export function useAlertFacts(alerts: readonly Alert[]): (alert: Alert) => AlertFacts {
  const instant = useQuery({ ...queueQueries.list('instant'), enabled: alerts.some((a) => a.queue === 'instant') });
  const disc = useQuery({ ...queueQueries.list('disc'), enabled: alerts.some((a) => a.queue === 'disc') });
  const refs = [...new Set(alerts.map((a) => a.ref))];
  const pages = useQueries({
    // A new alert changes the page's key: the states known meanwhile stay, so no offer flickers away.
    queries: chunks(refs, STATES_AT_ONCE).map((page) => ({
      ...titleQueries.states(page),
      placeholderData: (previous: Record<string, TitleState> | undefined) => previous,
    })),
  });
  const goneRefs = [...new Set(alerts.filter((a) => a.kind === 'gone').map((a) => a.ref))];
  const details = useQueries({ queries: goneRefs.map((ref) => ({ ...catalogQueries.title(ref), retry: false })) });
  const notInCatalog = new Set(
    goneRefs.filter((_, i) => details[i]?.isError && appErrorOf(details[i].error).kind === 'not_found').map(titlePath),
  );
  const states = new Map<string, TitleState>();
  for (const page of pages) for (const state of Object.values(page.data ?? {})) states.set(titlePath(state.ref), state);
  return (alert) => ({
    queue: alert.queue === 'instant' ? instant.data : disc.data,
    state: states.get(titlePath(alert.ref)),
    inCatalog: notInCatalog.has(titlePath(alert.ref)) ? false : undefined,
  });
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
