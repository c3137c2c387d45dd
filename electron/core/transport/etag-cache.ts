import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mapBaseInText, normalBaseUrl } from '../../../shared/protocol/base-url.ts';

/**
 * A persistent ETag cache: the last 200 body of each GET by URL, so a second visit to any resource
 * costs a 304 with no body, across restarts too.
 *
 * Layout: `<dir>/<namespace hash>/<key hash>.entry`, one file per entry, namespaced per signed-in
 * user (`forUser`, e.g. `${profileId}:${userId}`) so one user's answers never serve another's.
 * Each file is `MQEC1\n` + a JSON header line (key, etag, headers, body length and SHA-256) +
 * the body's UTF-8 bytes. Files are written to a temp name and renamed into place, so a crash
 * leaves the old entry or the new one; a torn or corrupt file (wrong magic, bad header, length or
 * checksum, another key) is deleted and reported as a miss, never served.
 *
 * Each namespace is bounded to `maxBytes` (file sizes) with least-recently-used eviction. The
 * index is in memory, rebuilt from the directory when a namespace is first used (recency from
 * file mtimes, which `get` touches), so there is no index file to go stale.
 */

export interface CacheEntry {
  etag: string;
  body: string;
  /** The response's headers (lower-case names) worth replaying with a 304: content-type etc. */
  headers: Record<string, string>;
}

export interface EtagCache {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, etag: string, body: string, headers?: Record<string, string>): Promise<void>;
  delete(key: string): Promise<void>;
  /** Drops every entry of this namespace. */
  clear(): Promise<void>;
}

export interface EtagCacheStore {
  /** The cache of one user of one profile; the same instance for the same namespace. */
  forUser(namespace: string): EtagCache;
  /** Drops a namespace's entries and directory (e.g. on sign-out). */
  removeUser(namespace: string): Promise<void>;
}

/** A namespace's service address now and the older ones of the same service (a port that changed). */
export type CacheAddresses = (namespace: string) => { current: string; former: readonly string[] } | null;

export interface EtagCacheOptions {
  /** The directory the cache lives in (created when needed), e.g. `<userData>/etag-cache`. */
  dir: string;
  /**
   * Where a namespace's service was before: a miss for a URL on the current address finds the
   * entry kept under an older one, moves it (key and the ids in its body) and serves it.
   */
  addresses?: CacheAddresses;
  /** Per-namespace bound in bytes (entry files); default 64 MiB. */
  maxBytes?: number;
}

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const MAGIC = 'MQEC1\n';
const SUFFIX = '.entry';

export function openEtagCache(options: EtagCacheOptions): EtagCacheStore {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const caches = new Map<string, NamespaceCache>();
  const dirOf = (ns: string) => join(options.dir, sha256(ns).slice(0, 32));
  return {
    forUser(namespace) {
      let cache = caches.get(namespace);
      if (!cache) {
        const addresses = options.addresses;
        cache = new NamespaceCache(dirOf(namespace), maxBytes, addresses ? () => addresses(namespace) : undefined);
        caches.set(namespace, cache);
      }
      return cache;
    },
    async removeUser(namespace) {
      const cache = caches.get(namespace);
      if (cache) await cache.clear();
      caches.delete(namespace);
      await rm(dirOf(namespace), { recursive: true, force: true });
    },
  };
}

/** The file name an entry for `key` is stored under (exported for tests that tear files). */
export function entryFileName(key: string): string {
  return sha256(key) + SUFFIX;
}

interface IndexEntry {
  size: number;
}

class NamespaceCache implements EtagCache {
  /** File name → size, in least- to most-recently-used order (Map insertion order). */
  private readonly index = new Map<string, IndexEntry>();
  private bytes = 0;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly addresses?: () => { current: string; former: readonly string[] } | null,
  ) {}

  async get(key: string): Promise<CacheEntry | undefined> {
    await this.init();
    const name = entryFileName(key);
    if (!this.index.has(name)) return this.moved(key);
    let raw: Buffer;
    try {
      raw = await readFile(join(this.dir, name));
    } catch {
      this.forget(name);
      return undefined;
    }
    const entry = decode(raw, key);
    if (!entry) {
      await this.drop(name);
      return undefined;
    }
    this.touch(name, raw.length);
    const now = new Date();
    await utimes(join(this.dir, name), now, now).catch(() => undefined);
    return entry;
  }

  /** The entry kept for `key` at an older address of the same service, moved onto the current one. */
  private async moved(key: string): Promise<CacheEntry | undefined> {
    const address = this.addresses?.();
    const current = address ? normalBaseUrl(address.current) : '';
    if (!address || !(key.startsWith(`${current}/`) || key.startsWith(`${current}?`))) return undefined;
    for (const former of address.former) {
      const oldKey = normalBaseUrl(former) + key.slice(current.length);
      if (oldKey === key || !this.index.has(entryFileName(oldKey))) continue;
      const old = await this.get(oldKey);
      if (!old) continue;
      const body = mapBaseInText(old.body, [former], current);
      await this.set(key, old.etag, body, old.headers);
      await this.drop(entryFileName(oldKey));
      return { ...old, body };
    }
    return undefined;
  }

  async set(key: string, etag: string, body: string, headers: Record<string, string> = {}): Promise<void> {
    await this.init();
    const name = entryFileName(key);
    const data = encode(key, etag, body, headers);
    if (data.length > this.maxBytes) {
      await this.drop(name); // too big to keep: at least never serve the old version
      return;
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 }); // the subscriber's queue and ratings: theirs alone
    const tmp = join(this.dir, `${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(tmp, data, { mode: 0o600 });
      await rename(tmp, join(this.dir, name));
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
    this.touch(name, data.length);
    await this.evict();
  }

  async delete(key: string): Promise<void> {
    await this.init();
    await this.drop(entryFileName(key));
  }

  async clear(): Promise<void> {
    await this.init();
    for (const name of [...this.index.keys()]) await this.drop(name);
  }

  /** Total bytes held (for tests and diagnostics). */
  get size(): number {
    return this.bytes;
  }

  private init(): Promise<void> {
    this.ready ??= this.scan();
    return this.ready;
  }

  /** Rebuilds the index from the files, oldest first; removes temp files a crash left behind. */
  private async scan(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return; // not created yet
    }
    const found: Array<{ name: string; size: number; mtime: number }> = [];
    for (const name of names) {
      const path = join(this.dir, name);
      if (name.endsWith('.tmp')) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (!name.endsWith(SUFFIX)) continue;
      try {
        const s = await stat(path);
        if (s.isFile()) found.push({ name, size: s.size, mtime: s.mtimeMs });
      } catch {
        // vanished meanwhile
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) this.touch(f.name, f.size);
    await this.evict();
  }

  private touch(name: string, size: number): void {
    this.forget(name);
    this.index.set(name, { size });
    this.bytes += size;
  }

  private forget(name: string): void {
    const old = this.index.get(name);
    if (old) {
      this.index.delete(name);
      this.bytes -= old.size;
    }
  }

  private async drop(name: string): Promise<void> {
    this.forget(name);
    await unlink(join(this.dir, name)).catch(() => undefined);
  }

  private async evict(): Promise<void> {
    for (const name of this.index.keys()) {
      if (this.bytes <= this.maxBytes) break;
      await this.drop(name);
    }
  }
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

interface Header {
  key: string;
  etag: string;
  headers: Record<string, string>;
  length: number;
  sha256: string;
}

function encode(key: string, etag: string, body: string, headers: Record<string, string>): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const header: Header = { key, etag, headers, length: bytes.length, sha256: sha256(bytes) };
  return Buffer.concat([Buffer.from(MAGIC + JSON.stringify(header) + '\n', 'utf8'), bytes]);
}

/** The entry, or undefined when the file is not a whole, intact entry for `key`. */
function decode(raw: Buffer, key: string): CacheEntry | undefined {
  if (raw.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return undefined;
  const nl = raw.indexOf(0x0a, MAGIC.length);
  if (nl < 0) return undefined;
  let header: Header;
  try {
    header = JSON.parse(raw.subarray(MAGIC.length, nl).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  if (!header || typeof header !== 'object' || header.key !== key || typeof header.etag !== 'string') return undefined;
  const body = raw.subarray(nl + 1);
  if (body.length !== header.length || sha256(body) !== header.sha256) return undefined;
  const headers = header.headers && typeof header.headers === 'object' ? header.headers : {};
  return { etag: header.etag, body: body.toString('utf8'), headers };
}
