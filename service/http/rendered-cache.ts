/** A representation as sent: its content type, bytes and ETag (the bytes' hash). */
export interface Rendered {
  type: string;
  body: Buffer;
  etag: string;
  /** The OAuth level a repeat must pass to be answered without the route (kept-get.ts); undefined: only through it. */
  level: KeptLevel | undefined;
  /** The route pattern that rendered it: what the kept-GET path counts its answers under (metrics.ts). */
  route?: string | undefined;
}

/** The levels the kept-GET path verifies itself. */
export type KeptLevel = 'signed' | 'protected';

/** A byte-bounded LRU of rendered representations. */
export class RenderedCache {
  private readonly entries = new Map<string, Rendered>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Rendered | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Rendered): void {
    const cost = value.body.length + key.length;
    if (cost > this.maxBytes / 16) return; // one big page must not flush everything else
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.length + key.length;
    }
    this.entries.set(key, value);
    this.bytes += cost;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.body.length + oldKey.length;
    }
  }
}

/** A page of a versioned resource as rendered, valid at the resource's `version` while the clock is in [validFrom, validUntil). */
export interface KeptPage {
  version: number;
  type: string;
  /** Bytes, encoded once when kept: each repeat is sent without encoding or measuring a string again. */
  body: Buffer;
  /** The page's ETag, computed once when it is kept. */
  etag: string;
  validFrom: number;
  validUntil: number;
}

/** Rendered pages of versioned resources by request key, at most `max` (least recently used dropped first). */
export class KeptPages {
  private readonly pages = new Map<string, KeptPage>();

  constructor(private readonly max: number) {}

  /** The page kept for `key` when it was rendered at `version` and is still valid at `now`. */
  get(key: string, version: number, now: number): KeptPage | undefined {
    const page = this.pages.get(key);
    if (!page || page.version !== version || now < page.validFrom || now >= page.validUntil) return undefined;
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  keep(key: string, page: KeptPage): void {
    this.pages.delete(key);
    this.pages.set(key, page);
    if (this.pages.size > this.max) this.pages.delete(this.pages.keys().next().value!);
  }
}
