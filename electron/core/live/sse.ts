/** One Server-Sent Event: its number, name and data. */
export interface LiveEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/** Reads a `text/event-stream` body as it comes, event by event (comments and `retry:` skipped). */
export class EventParser {
  private buffer = '';

  /** The events completed by `text`. */
  push(text: string): LiveEvent[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const events: LiveEvent[] = [];
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      const event = parseBlock(block);
      if (event) events.push(event);
    }
    return events;
  }
}

function parseBlock(block: string): LiveEvent | undefined {
  const fields = new Map<string, string>();
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
  }
  if (!fields.has('event') && !fields.has('data')) return undefined;
  return { id: fields.get('id'), event: fields.get('event') ?? 'message', data: fields.get('data') ?? '' };
}
