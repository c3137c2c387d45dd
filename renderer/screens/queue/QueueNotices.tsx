import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppError, QueueKind } from '../../../shared/models.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { BulkProgress } from '../../components/queue/BulkProgress.tsx';
import { ConflictNotice } from '../../components/queue/ConflictNotice.tsx';
import { useCancelBulk } from '../../queries/queue.ts';
import { statusKeys, statusQueries } from '../../queries/status.ts';

/**
 * Quiet notices above this queue's list: a bulk change under way (with Cancel), a conflict the
 * core resolved (or could not), and an edit the service refused.
 */
export function QueueNotices({
  kind,
  error,
  onDismissError,
}: {
  kind: QueueKind;
  error: AppError | null;
  onDismissError: () => void;
}) {
  const client = useQueryClient();
  const conflict = useQuery(statusQueries.conflict()).data;
  const progress = useQuery(statusQueries.progress(kind)).data;
  const cancelBulk = useCancelBulk(kind);
  return (
    <>
      {progress && !progress.finished && progress.kind === kind && (
        <BulkProgress progress={progress} onCancel={() => cancelBulk.mutate()} />
      )}
      {conflict && conflict.kind === kind && (
        <ConflictNotice
          message={conflict.message}
          applied={conflict.applied}
          onDismiss={() => client.setQueryData(statusKeys.conflict(), null)}
        />
      )}
      {error && <ErrorMessage error={error} compact onRetry={onDismissError} />}
    </>
  );
}
