import type { AppError, RefusedEdit } from '../../../shared/models.ts';
import { quoted } from './intents.ts';
import type { KnownQueues } from './known.ts';
import type { OutboxEntry, QueueIntent, QueueOutbox } from './outbox.ts';

/** Marks edits refused in the outbox and tells the app the account's refused edits when they change. */
export class Refusals {
  private announced = '';

  constructor(
    private readonly outbox: QueueOutbox,
    private readonly known: KnownQueues,
    private readonly account: () => string | null,
    private readonly tell: (edits: RefusedEdit[]) => void,
  ) {}

  /** Keeps the entry, marked refused with the reason in words; resolves once the file holds it. */
  async refuse(entry: OutboxEntry, error: AppError): Promise<void> {
    const refused = {
      reason: reasonOf(error.message),
      ...(error.status !== undefined ? { status: error.status } : {}),
      at: Date.now(),
    };
    await this.outbox.update(entry.id, (e) => ({ ...e, refused })).catch(() => undefined); // the outbox warns
    this.announce();
  }

  announce(): void {
    const edits = this.known.refused(this.account()).map(refusedEdit);
    const text = JSON.stringify(edits);
    if (text === this.announced) return;
    this.announced = text;
    this.tell(edits);
  }
}

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

/** The why alone: the notice already names the edit ("“Alien” was removed on another device."). */
function reasonOf(message: string): string {
  return message.replace(/, so it (?:could not|cannot) be \w+\.$/, '.');
}
