import type { ExportFile, ExportFormat, ExportWhat } from '../../../shared/import-export.ts';
import type { QueueKind } from '../../../shared/models.ts';
import type { Client } from '../client/index.ts';
import type { Operations } from '../api/index.ts';
import type { QueueSync } from '../queue/index.ts';
import { ServiceError, type Transport } from '../types.ts';
import { allHistory, allRatings, queueItems } from './collect.ts';
import { exportDocument, historyCsv, isoDay, queueCsv, ratingsCsv } from './formats.ts';

/**
 * The export room's door: a queue, the ratings or the history (or all of them) written as CSV in
 * Letterboxd's import columns, as Marquee's JSON document, or (a queue) as the service's own Atom
 * feed. The host saves the file: Electron through a save dialog (its `saveFile`), the web host by
 * handing it back for the renderer to download.
 */
export { LETTERBOXD_COLUMNS, exportDocument } from './formats.ts';

/** Saves a file where the person chooses (Electron's save dialog); `saved` false when they cancelled. */
export type SaveFile = (file: ExportFile) => Promise<{ saved: boolean }>;

export interface ExportContext {
  client: Client;
  sync: QueueSync;
  transport: Transport;
  baseUrl: () => string;
  /** Absent in the web host: the file is answered for the renderer to download. */
  saveFile?: SaveFile;
  now?: () => number;
}

const WHAT_NAMES: Record<ExportWhat, string> = {
  instant: 'instant-queue',
  disc: 'disc-queue',
  ratings: 'ratings',
  history: 'history',
  all: 'everything',
};
const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv',
  json: 'application/json',
  atom: 'application/atom+xml',
};
const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'json', atom: 'atom' };

export function exportOperations(ctx: ExportContext): Pick<Operations, 'export.save'> {
  return {
    'export.save': async ({ what, format }) => {
      const file = await buildFile(ctx, what, format);
      if (!ctx.saveFile) return { fileName: file.fileName, count: file.count, delivery: 'download', file };
      const { saved } = await ctx.saveFile(file);
      return { fileName: file.fileName, count: file.count, delivery: saved ? 'saved' : 'cancelled' };
    },
  };
}

async function buildFile(ctx: ExportContext, what: ExportWhat, format: ExportFormat): Promise<ExportFile> {
  const now = new Date((ctx.now ?? Date.now)());
  const fileName = `marquee-${WHAT_NAMES[what]}-${isoDay(Math.floor(now.getTime() / 1000))}.${EXTENSIONS[format]}`;
  const file = (content: string, count: number): ExportFile => ({
    fileName,
    mediaType: MEDIA_TYPES[format],
    content,
    count,
  });
  if (format === 'atom') return file(...(await atomFeed(ctx, queueKind(what))));
  if (format === 'json') return file(...(await jsonDocument(ctx, what, now)));
  switch (what) {
    case 'instant':
    case 'disc': {
      const items = await queueItems(ctx.sync, what);
      return file(queueCsv(items), items.length);
    }
    case 'ratings': {
      const { text, count } = ratingsCsv(await allRatings(ctx.client));
      return file(text, count);
    }
    case 'history': {
      const items = await allHistory(ctx.client);
      return file(historyCsv(items), items.length);
    }
    case 'all':
      throw new ServiceError({ kind: 'invalid', message: 'Everything at once is exported as JSON.' });
  }
}

async function jsonDocument(ctx: ExportContext, what: ExportWhat, now: Date): Promise<[string, number]> {
  const wants = (part: ExportWhat) => what === 'all' || what === part;
  const [instant, disc, ratings, history] = await Promise.all([
    wants('instant') ? queueItems(ctx.sync, 'instant') : undefined,
    wants('disc') ? queueItems(ctx.sync, 'disc') : undefined,
    wants('ratings') ? allRatings(ctx.client) : undefined,
    wants('history') ? allHistory(ctx.client) : undefined,
  ]);
  const count = (instant?.length ?? 0) + (disc?.length ?? 0) + (ratings?.length ?? 0) + (history?.length ?? 0);
  const parts = {
    ...(instant ? { instant } : {}),
    ...(disc ? { disc } : {}),
    ...(ratings ? { ratings } : {}),
    ...(history ? { history } : {}),
  };
  return [exportDocument(base(ctx), parts, now), count];
}

/** The service's own Atom feed of a queue (every entry: the service's largest page). */
async function atomFeed(ctx: ExportContext, kind: QueueKind): Promise<[string, number]> {
  const userId = ctx.client.userId() ?? (await ctx.client.currentUser()).id;
  const res = await ctx.transport.request({
    url: `${base(ctx)}/users/${encodeURIComponent(userId)}/queues/${kind}`,
    query: { output: 'atom', max_results: '500' },
    level: 'protected',
    cache: false,
  });
  return [res.body, (res.body.match(/<entry>/g) ?? []).length];
}

function queueKind(what: ExportWhat): QueueKind {
  if (what === 'instant' || what === 'disc') return what;
  throw new ServiceError({
    kind: 'invalid',
    message: 'An Atom feed holds a queue: choose the instant or the disc queue.',
  });
}

function base(ctx: ExportContext): string {
  return ctx.baseUrl().replace(/\/+$/, '');
}
