import { readFileSync } from 'node:fs';
import type { Credentials } from '../helpers/oauth-client.ts';
import { seeded, signedFetch } from '../helpers/signed-fetch.ts';

/** What a soak run drives: a service process, a consumer, subscribers with tokens, titles to queue. */
export interface SoakTarget {
  localUrl: string;
  baseUrl: string;
  pid: number;
  consumer: Credentials;
  subscribers: Array<{ id: string; token: Credentials }>;
  titles: number[];
}

export interface SoakResult {
  connections: number;
  seconds: number;
  requests: number;
  reads: number;
  writes: number;
  errors: string[];
  statuses: Record<number, number>;
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  /** Peak RSS in the run's first half and in its second half: growth shows as a leak. */
  rssFirstHalfPeakMb: number;
  rssSecondHalfPeakMb: number;
}

const SEARCHES = ['the', 'love', 'night', 'man', 'dark', 'war', 'star', 'life'];

/**
 * `connections` clients, each on its own keep-alive connection, for `seconds`: four reads (search,
 * title, queue, ratings) to one write (add or remove its own title). Any answer other than 2xx or
 * 304, or a failed connection, is an error. The service's RSS is sampled every 250 ms.
 */
export async function soak(target: SoakTarget, connections: number, seconds: number): Promise<SoakResult> {
  const result: SoakResult = { connections, seconds, requests: 0, reads: 0, writes: 0, errors: [], statuses: {}, rssStartMb: rssMb(target.pid), rssPeakMb: 0, rssEndMb: 0, rssFirstHalfPeakMb: 0, rssSecondHalfPeakMb: 0 };
  const started = Date.now();
  const deadline = started + seconds * 1000;
  const sampler = setInterval(() => {
    const rss = rssMb(target.pid);
    result.rssPeakMb = Math.max(result.rssPeakMb, rss);
    if (Date.now() - started < (seconds * 1000) / 2) result.rssFirstHalfPeakMb = Math.max(result.rssFirstHalfPeakMb, rss);
    else result.rssSecondHalfPeakMb = Math.max(result.rssSecondHalfPeakMb, rss);
  }, 250);
  const client = async (n: number) => {
    const next = seeded(n + 1);
    const subscriber = target.subscribers[n % target.subscribers.length]!;
    const title = target.titles[n % target.titles.length]!;
    let queued = false;
    while (Date.now() < deadline) {
      const roll = next();
      let path: string;
      let method: 'GET' | 'POST' = 'GET';
      let form: Record<string, string> | undefined;
      let headers: Record<string, string> = {};
      if (roll < 0.2) {
        method = 'POST';
        if (queued) {
          path = `/users/${subscriber.id}/queues/instant/available/${title}`;
          headers = { 'x-http-method-override': 'DELETE' };
          form = {};
        } else {
          path = `/users/${subscriber.id}/queues/instant`;
          form = { title_ref: `${target.baseUrl}/catalog/titles/movies/${title}` };
        }
      } else if (roll < 0.4) path = `/catalog/titles?term=${SEARCHES[Math.floor(next() * SEARCHES.length)]}&max_results=10`;
      else if (roll < 0.6) path = `/catalog/titles/movies/${target.titles[Math.floor(next() * target.titles.length)]}`;
      else if (roll < 0.8) path = `/users/${subscriber.id}/queues/instant?max_results=50`;
      else path = `/users/${subscriber.id}/ratings/title/actual`;
      try {
        const res = await signedFetch(target.localUrl, target.consumer, subscriber.token, method, path, form, headers);
        result.requests++;
        result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
        if (method === 'POST') result.writes++;
        else result.reads++;
        if (res.status >= 400) {
          // Two clients share a subscriber but never a title, so a write cannot collide.
          if (result.errors.length < 20) result.errors.push(`${res.status} ${method} ${path}: ${res.body.slice(0, 200)}`);
        } else if (method === 'POST') queued = !queued;
      } catch (error) {
        result.requests++;
        if (result.errors.length < 20) result.errors.push(`${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, n) => client(n)));
  clearInterval(sampler);
  result.rssEndMb = rssMb(target.pid);
  return result;
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
