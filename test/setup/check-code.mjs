// `npm run check:code`: what `npm run typecheck` and `npm run lint` check, in one process that
// builds each TypeScript program once. Run apart, tsc builds the two programs (tsconfig.json,
// tsconfig.renderer.json) and type-aware ESLint builds them again through its project service:
// the same parsing and type checking twice. Here ESLint is handed the programs tsc's diagnostics
// came from (typescript-eslint's `parserOptions.programs`), with every other setting from
// eslint.config.js. Fails when either finds a problem; prints both as tsc and `eslint .` would.
// package.json runs it with a larger young generation (--max-semi-space-size=64): the two programs
// and ESLint's trees keep ~2 GB alive, and with Node's default garbage collection was a fifth of the
// main thread's samples; about 4 s less CPU of its ≈ 54 s here.
import { ESLint } from 'eslint';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** In the order `npm run typecheck` checks them; a file in both (shared/) is linted with the first. */
const PROJECTS = ['tsconfig.json', 'tsconfig.renderer.json'];

/** The program `tsc -p <config> --noEmit` builds (tsc's own JSDoc parsing mode: only what type errors need). */
function programOf(config) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(`${ROOT}${config}`, {}, host);
  const compilerHost = ts.createCompilerHost(parsed.options);
  compilerHost.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host: compilerHost,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
}

/** tsc's diagnostics for a program, formatted as tsc prints them. */
function typeErrors(program) {
  const diagnostics = ts.sortAndDeduplicateDiagnostics(ts.getPreEmitDiagnostics(program));
  if (diagnostics.length === 0) return '';
  return ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  });
}

/** CPU seconds this process used since `since` (a process.cpuUsage() reading). */
const cpuSeconds = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1e6;
};

async function main() {
  const started = process.cpuUsage();
  const programs = PROJECTS.map(programOf);
  const typeOutput = programs.map(typeErrors).join('');
  const typesCpu = cpuSeconds(started);
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: [
      {
        files: ['**/*.{ts,tsx}'],
        languageOptions: { parserOptions: { projectService: false, project: null, programs } },
      },
    ],
  });
  const results = await eslint.lintFiles(['.']);
  const lintOutput = await (await eslint.loadFormatter('stylish')).format(results);
  const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
  if (typeOutput) console.log(typeOutput);
  if (lintOutput) console.log(lintOutput);
  const lintCpu = cpuSeconds(started) - typesCpu;
  console.log(
    `types: ${typeOutput ? 'errors' : 'ok'} (${typesCpu.toFixed(1)} s of CPU); lint: ${lintErrors ? `${lintErrors} errors` : 'ok'} (${lintCpu.toFixed(1)} s of CPU, ${results.length} files)`,
  );
  process.exitCode = typeOutput || lintErrors ? 1 : 0;
}

await main();
