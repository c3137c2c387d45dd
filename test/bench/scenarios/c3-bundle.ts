import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchScenario } from '../registry.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** C3: the renderer's production bundle, gzipped (built here, measured by scripts/bundle-size.mjs). */
export const scenario: BenchScenario = {
  id: 'C3',
  title: 'renderer production bundle',
  run(ctx) {
    ctx.log('  building the renderer…');
    execFileSync(process.execPath, ['scripts/build.mjs', 'renderer'], { cwd: ROOT, stdio: 'ignore' });
    const size = JSON.parse(
      execFileSync(process.execPath, ['scripts/bundle-size.mjs'], { cwd: ROOT, encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop()!,
    ) as { files: number; gzipBytes: number; gzipKB: number };
    return Promise.resolve([
      {
        scenario: 'C3',
        figure: `renderer bundle, gzipped (${size.files} files)`,
        value: `${size.gzipKB} KB`,
        target: '< 300 KB',
        met: size.gzipBytes < 300 * 1024,
      },
    ]);
  },
};
