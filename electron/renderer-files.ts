import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { AppCore } from './core/app-core.ts';

/** Serving the built renderer (dist/renderer): shared by Electron's app:// handler and the web host. */

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type RendererFile =
  | { kind: 'file'; path: string; isIndex: boolean }
  | { kind: 'not_built' }
  | { kind: 'not_found' };

/**
 * The file for a URL path, never outside `rendererDir`. Paths without an extension are the
 * single-page app's own routes and get index.html.
 */
export async function resolveRendererFile(rendererDir: string, urlPath: string): Promise<RendererFile> {
  const root = resolve(rendererDir);
  const index = join(root, 'index.html');
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'not_found' };
  }
  if (relative.includes('\0')) return { kind: 'not_found' };
  if (relative.endsWith('/')) relative += 'index.html';
  let file = resolve(root, '.' + (relative.startsWith('/') ? relative : `/${relative}`));
  if (!file.startsWith(root + sep)) return { kind: 'not_found' };
  if (!(await isFile(file)) && extname(file) === '') file = index;
  if (await isFile(file)) return { kind: 'file', path: file, isIndex: file === index };
  return file === index ? { kind: 'not_built' } : { kind: 'not_found' };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * index.html with the person's pinned theme on <html>, so the first paint, before any script,
 * is already in it (the renderer keeps it from then on); `null` follows the system.
 */
export function withPinnedTheme(html: string, theme: 'light' | 'dark' | null): string {
  return theme ? html.replace(/<html(?=[\s>])/i, `<html data-theme="${theme}"`) : html;
}

/** The theme the person pinned in Settings (null: the system's), for index.html's first paint. */
export async function pinnedTheme(core: Pick<AppCore, 'dispatch'> | null): Promise<'light' | 'dark' | null> {
  try {
    const result = await core?.dispatch('preferences.get', {});
    return result?.ok && result.value.theme !== 'system' ? result.value.theme : null;
  } catch {
    return null;
  }
}
