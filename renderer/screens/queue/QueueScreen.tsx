import type { QueueKind } from '../../../shared/models.ts';
import '../../styles/queue.css';
import { QueueManager } from './QueueManager.tsx';

/** The Instant and Disc queue screens: one queue manager per kind (the frame remounts it on a switch). */
export function QueueScreen({ kind }: { kind: QueueKind }) {
  return <QueueManager kind={kind} />;
}
