import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fixed POX body of exactly 4096 bytes, shaped like a small catalog document. */
export function fixedXml(size = 4096): Buffer {
  const head = '<?xml version="1.0" standalone="yes"?><catalog_titles>';
  const tail = '</catalog_titles>';
  const item = (n: number) =>
    `<link href="http://127.0.0.1:8710/catalog/titles/movies/${60000000 + n}" rel="http://schemas.netflix.com/catalog/title" title="Title ${n}"/>`;
  let body = head;
  for (let n = 1; body.length + item(n).length + tail.length <= size; n++) body += item(n);
  body += ' '.repeat(size - body.length - tail.length) + tail;
  return Buffer.from(body, 'utf8');
}

/** The baseline: node:http answering every request with the same 4 KB body, nothing else. */
export async function startBaseline(): Promise<{ port: number; close: () => Promise<void> }> {
  const body = fixedXml();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
