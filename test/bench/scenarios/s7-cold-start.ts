import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchScenario } from '../registry.ts';
import { seconds } from './figures.ts';

const SERVICE = fileURLToPath(new URL('../../../scripts/service.mjs', import.meta.url));

/** Starts `npm run service` on a data dir and resolves once it prints that it listens; then stops it. */
async function timedStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVICE, '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`service exited (${code}) before listening: ${out}`)));
    });
    return (performance.now() - started) / 1000;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await exited;
  }
}

/** S7: first start with the demo catalog (loads it), then a restart on the same data. */
export const scenario: BenchScenario = {
  id: 'S7',
  title: 'cold start and restart',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'marquee-bench-start-'));
    try {
      await timedStart(join(dir, 'warm-bundle')); // builds the cached service bundle once: not what S7 measures
      const cold = await timedStart(join(dir, 'data'));
      // A restart is short enough that one sample mostly measures the machine's noise: the median of three.
      const restarts = [
        await timedStart(join(dir, 'data')),
        await timedStart(join(dir, 'data')),
        await timedStart(join(dir, 'data')),
      ];
      const restart = [...restarts].sort((a, b) => a - b)[1]!;
      return [
        {
          scenario: 'S7',
          figure: 'cold start: empty data dir → demo catalog loaded, listening',
          value: seconds(cold),
          target: '≤ 3 s',
          met: cold <= 3,
        },
        {
          scenario: 'S7',
          figure: `restart on the same data, until listening (median of ${restarts.map((r) => seconds(r)).join(', ')})`,
          value: seconds(restart),
          target: '≤ 0.5 s',
          met: restart <= 0.5,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
