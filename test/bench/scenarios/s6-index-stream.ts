import { execFile } from 'node:child_process';
import { authHeader } from '../../helpers/oauth-client.ts';
import { profiled } from '../profile.ts';
import type { BenchScenario } from '../registry.ts';

/** S6: `/catalog/titles/index` at 100k titles: throughput of the stream and the server's RSS growth. */
export const scenario: BenchScenario = {
  id: 'S6',
  title: 'catalog index stream',
  async run(ctx) {
    const live = await ctx.service(ctx.options.synthetic);
    const path = '/catalog/titles/index';
    await startUpDone(live.port, live.bench.consumer.key);
    const authorization = authHeader(live.bench.consumer, 'GET', `http://127.0.0.1:${live.port}${path}`);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    const cpuBefore = process.cpuUsage();
    const { bytes, secs, readerCpuSecs } = await profiled(ctx.options.cpuProfDir, 'S6', ctx.log, () =>
      readElsewhere(live.port, path, authorization),
    );
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpuBefore);
    const serviceCpuSecs = (cpu.user + cpu.system) / 1e6;
    const mbps = bytes / 1e6 / secs;
    const growth = (rssPeak - rssBefore) / 2 ** 20;
    const titles = live.bench.titles.toLocaleString('en-US');
    return [
      {
        scenario: 'S6',
        figure: `index stream at ${titles} titles, MB/s (${(bytes / 1e6).toFixed(0)} MB in ${secs.toFixed(1)} s; CPU: the service’s process ${serviceCpuSecs.toFixed(1)} s, the reader’s ${readerCpuSecs.toFixed(1)} s)`,
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

/**
 * Waits for the work the service starts when it begins listening: the search word table, built on
 * the event loop in steps (store/search/catalog-words.ts), which an autocomplete answer awaits. In a
 * full run S4 and S5 have waited for it on this service already; with `--only S6` it would overlap
 * the stream and count in its time and RSS.
 */
async function startUpDone(port: number, consumerKey: string): Promise<void> {
  const res = await fetch(
    `http://127.0.0.1:${port}/catalog/titles/autocomplete?term=a&oauth_consumer_key=${encodeURIComponent(consumerKey)}`,
  );
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`autocomplete before S6: ${res.status}`);
}

/** What the reader reports: bytes read, seconds from its request to the last byte, its own CPU seconds (from its start). */
interface Stream {
  bytes: number;
  secs: number;
  readerCpuSecs: number;
}

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
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ bytes, secs: (performance.now() - started) / 1000, readerCpuSecs: (cpu.user + cpu.system) / 1e6 }));
  });
}).on('error', (e) => { console.error(e.message); process.exit(1); });
`;

function readElsewhere(port: number, path: string, authorization: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', READER, String(port), path, authorization],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) reject(new Error(error.message, { cause: error }));
        else resolve(JSON.parse(stdout) as Stream);
      },
    );
  });
}
