import type { RefusedEdit } from '../../../shared/models.ts';
import { quoted } from './intents.ts';
import type { OutboxEntry, QueueIntent } from './outbox.ts';

/** A kept edit the service refused, as the person reads it. */
export function refusedEdit(entry: OutboxEntry): RefusedEdit {
  return {
    id: entry.id,
    kind: entry.intent.kind,
    edit: editWords(entry.intent),
    reason: entry.refused?.reason ?? '',
    at: entry.refused?.at ?? entry.queuedAt,
  };
}

/** The edit in words, as the person asked for it: "Move “Alien” to position 3". */
export function editWords(intent: QueueIntent): string {
  const name = quoted(intent.name).replace(/^The title$/, 'the title');
  switch (intent.op) {
    case 'move':
      return `Move ${name} to position ${intent.position}`;
    case 'add':
      return `Add ${name} to your ${intent.kind} queue`;
    case 'remove':
      return `Remove ${name} from your ${intent.kind} queue`;
    case 'replace':
      return `Reorder your ${intent.kind} queue`;
  }
}
