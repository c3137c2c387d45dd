/** The import rules of ARCHITECTURE.md ("Rules that keep the house simple"), checked in npm test. */
module.exports = {
  forbidden: [
    {
      name: 'service-imports-only-shared-protocol',
      comment: 'service/ may use shared/protocol and shared/pure, nothing else of shared/, and never the app',
      severity: 'error',
      from: { path: '^service/' },
      to: { path: '^(shared/(?!protocol/|pure/)|electron/|renderer/)' },
    },
    {
      name: 'shared-stands-alone',
      comment: 'shared/ is imported by every side and imports none of them',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(service|electron|renderer)/' },
    },
    {
      name: 'renderer-only-shared',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(service|electron)/' },
    },
    {
      name: 'electron-not-service-or-renderer',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^(service|renderer)/' },
    },
    {
      name: 'core-never-imports-electron',
      comment: 'electron/core runs in plain Node tests: neither electron nor electron-store (which imports it); main.ts passes the store in',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: '^electron(-store)?$|node_modules/electron(-store)?/' },
    },
    {
      name: 'only-main-and-preload-run-electron',
      comment: 'everything else under electron/ runs in plain Node tests (type-only imports are erased)',
      severity: 'error',
      from: { path: '^electron/', pathNot: '^electron/(main|preload)\\.ts$' },
      to: { path: '^electron$|node_modules/electron/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^test/' },
  },
};
