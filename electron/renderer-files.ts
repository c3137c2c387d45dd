import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

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
