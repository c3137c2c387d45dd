import '../styles/catalog.css';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RentalItem } from '../../shared/models.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { countOf, formatDate } from '../words.ts';
import { ScreenFrame } from '../components/ScreenFrame.tsx';
import { SegmentedControl, type Segment } from '../components/SegmentedControl.tsx';
import { Loading, SkeletonRows } from '../components/Skeleton.tsx';
import { TitleThumb } from '../components/TitleThumb.tsx';
import { accountQueries, type HistoryView } from '../queries/account.ts';
import { appErrorOf } from '../queries/call.ts';

const VIEWS: Segment<HistoryView>[] = [
  { value: 'all', label: 'All' },
  { value: 'watched', label: 'Watched' },
  { value: 'shipped', label: 'Shipped' },
  { value: 'returned', label: 'Returned' },
];

function dateWords(unixSeconds: number | null): string {
  if (unixSeconds === null) return '—';
  return formatDate(unixSeconds, { moment: true });
}

/** "instant" → "Instant"; DVD and Blu-ray as they are. */
function formatWords(format: string): string {
  return format ? format.charAt(0).toUpperCase() + format.slice(1) : '—';
}

/** What you rented: watched online, discs shipped and returned, newest first, filtered by view. */
export function HistoryScreen() {
  const [view, setView] = useState<HistoryView>('all');
  const history = useInfiniteQuery(accountQueries.history(view));
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];
  const total = history.data?.pages[0]?.total ?? 0;
  return (
    <ScreenFrame title="History" count={history.data ? countOf(total, 'rental') : null}>
      <div className="toolbar">
        <SegmentedControl label="Show" segments={VIEWS} value={view} onChange={setView} />
      </div>
      {history.isPending && (
        <Loading label="Loading your rental history…">
          <SkeletonRows count={8} />
        </Loading>
      )}
      {history.isError && <ErrorMessage error={appErrorOf(history.error)} onRetry={() => void history.refetch()} />}
      {history.data && items.length === 0 && (
        <div className="empty-state">
          <strong>
            {view === 'all'
              ? 'No rentals yet.'
              : `Nothing ${VIEWS.find((v) => v.value === view)!.label.toLowerCase()} yet.`}
          </strong>
          <span>Titles you watch or rent on disc appear here.</span>
        </div>
      )}
      {items.length > 0 && <HistoryTable items={items} />}
      {history.hasNextPage && (
        <div className="grid-more">
          <button
            type="button"
            className="button"
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
          >
            {history.isFetchingNextPage ? 'Loading more…' : 'Show more'}
          </button>
        </div>
      )}
    </ScreenFrame>
  );
}

function HistoryTable({ items }: { items: RentalItem[] }) {
  return (
    <table className="history-table">
      <caption className="visually-hidden">Rental history</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Format</th>
          <th scope="col">Watched</th>
          <th scope="col">Shipped</th>
          <th scope="col">Returned</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={`${item.ref}-${i}`}>
            <td>
              <TitleThumb title={item} />
            </td>
            <td>{formatWords(item.format)}</td>
            <td>{dateWords(item.watchedDate)}</td>
            <td>{dateWords(item.shippedDate)}</td>
            <td>{dateWords(item.returnedDate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
