import { execFile } from 'node:child_process';
import { authHeader } from '../../helpers/oauth-client.ts';
import type { BenchScenario } from '../registry.ts';

/** S6: `/catalog/titles/index` at 100k titles: throughput of the stream and the server's RSS growth. */
export const scenario: BenchScenario = {
  id: 'S6',
  title: 'catalog index stream',
  async run(ctx) {
    const live = await ctx.service(ctx.options.synthetic);
    const path = '/catalog/titles/index';
    const authorization = authHeader(live.bench.consumer, 'GET', `http://127.0.0.1:${live.port}${path}`);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const { bytes, secs } = await readElsewhere(live.port, path, authorization);
    clearInterval(sampler);
    const mbps = bytes / 1e6 / secs;
    const growth = (rssPeak - rssBefore) / 2 ** 20;
    const titles = live.bench.titles.toLocaleString('en-US');
    return [
      {
        scenario: 'S6',
        figure: `index stream at ${titles} titles, MB/s (${(bytes / 1e6).toFixed(0)} MB in ${secs.toFixed(1)} s)`,
        value: `${mbps.toFixed(1)} MB/s`,
        target: '≥ 50 MB/s',
        met: mbps >= 50,
      },
      {
        scenario: 'S6',
        figure: 'RSS growth of the service’s process during that stream (the reader is a process of its own)',
        value: `${growth.toFixed(1)} MB`,
        target: '< 50 MB',
        met: growth < 50,
      },
    ];
  },
};

/** The reader: a plain `node` child that GETs the index, counts the bytes and times itself. */
const READER = `
const http = require('node:http');
const [port, path, authorization] = process.argv.slice(1);
const started = performance.now();
http.get({ host: '127.0.0.1', port: Number(port), path, headers: { authorization } }, (res) => {
  let bytes = 0;
  res.on('data', (chunk) => (bytes += chunk.length));
  res.on('end', () => {
    if (res.statusCode !== 200) { console.error('index: ' + res.statusCode); process.exit(1); }
    console.log(JSON.stringify({ bytes, secs: (performance.now() - started) / 1000 }));
  });
}).on('error', (e) => { console.error(e.message); process.exit(1); });
`;

function readElsewhere(port: number, path: string, authorization: string): Promise<{ bytes: number; secs: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', READER, String(port), path, authorization],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(JSON.parse(stdout) as { bytes: number; secs: number });
      },
    );
  });
}
