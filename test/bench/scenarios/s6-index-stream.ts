import http from 'node:http';
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
    const started = performance.now();
    const bytes = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: live.port, path, headers: { authorization } }, (res) => {
        let n = 0;
        res.on('data', (chunk: Buffer) => (n += chunk.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`index: ${res.statusCode}`))));
      }).on('error', reject);
    });
    const secs = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const mbps = bytes / 1e6 / secs;
    const growth = (rssPeak - rssBefore) / 2 ** 20;
    const titles = live.bench.titles.toLocaleString('en-US');
    return [
      { scenario: 'S6', figure: `index stream at ${titles} titles, MB/s (${(bytes / 1e6).toFixed(0)} MB in ${secs.toFixed(1)} s)`, value: `${mbps.toFixed(1)} MB/s`, target: '≥ 50 MB/s', met: mbps >= 50 },
      { scenario: 'S6', figure: 'RSS growth during that stream (server and reader share the process)', value: `${growth.toFixed(1)} MB`, target: '< 50 MB', met: growth < 50 },
    ];
  },
};
