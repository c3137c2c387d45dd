/** The import rules of ARCHITECTURE.md ("Rules that keep the house simple"), checked in npm test. */

/**
 * electron/core's rooms (a folder, entered only by its index.ts) and low files, and what each may
 * import of electron/core besides itself: docs/ARCHITECTURE.md's table. compose.ts wires them all.
 */
const CORE_ROOMS = {
  'types.ts': [],
  'settings/': ['types.ts'],
  'xml/': ['types.ts'],
  'transport/': ['types.ts'],
  'client/': ['types.ts', 'xml/'],
  'auth/': ['types.ts', 'settings/', 'transport/'],
  'errors.ts': ['types.ts'],
  'queue/': ['types.ts', 'errors.ts', 'client/', 'transport/'],
  'api/': ['types.ts', 'errors.ts', 'settings/', 'transport/', 'xml/', 'client/', 'auth/', 'queue/'],
  'import/': ['types.ts', 'errors.ts', 'xml/', 'client/', 'queue/', 'api/'],
  'export/': ['types.ts', 'errors.ts', 'client/', 'queue/', 'api/'],
  'alerts/': ['types.ts', 'settings/', 'client/', 'api/'],
  'live/': ['types.ts', 'transport/'],
  'app-core.ts': ['settings/', 'export/'],
};

/** A CORE_ROOMS name as a path pattern under electron/core/. */
const corePath = (name) => (name.endsWith('/') ? name : `${name.replace(/\./g, '\\.')}$`);

const coreRoomRules = Object.entries(CORE_ROOMS).map(([room, allowed]) => ({
  name: `core-arrows-from-${room.replace(/\/|\.ts$/g, '')}`,
  comment: `electron/core/${room} may import ${allowed.length ? allowed.join(', ') : 'nothing'} of electron/core (see CORE_ROOMS)`,
  severity: 'error',
  from: { path: `^electron/core/${corePath(room)}` },
  to: { path: '^electron/core/', pathNot: `^electron/core/(${[room, ...allowed].map(corePath).join('|')})` },
}));

module.exports = {
  forbidden: [
    ...coreRoomRules,
    {
      name: 'core-room-entered-by-its-index-from-a-room',
      comment: 'a room of electron/core reaches another room only through its index.ts',
      severity: 'error',
      from: { path: '^electron/core/([^/]+)/' },
      to: { path: '^electron/core/[^/]+/(?!index\\.ts$)', pathNot: '^electron/core/$1/' },
    },
    {
      name: 'core-room-entered-by-its-index',
      comment:
        'from outside the rooms (compose.ts, the hosts), a room of electron/core is entered only by its index.ts',
      severity: 'error',
      from: { pathNot: '^electron/core/[^/]+/' },
      to: { path: '^electron/core/[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'shared-pure-imports-nothing',
      comment:
        'shared/pure holds algorithms every side may use: no import beyond shared/pure itself, no node: modules, no packages',
      severity: 'error',
      from: { path: '^shared/pure/' },
      to: { pathNot: '^shared/pure/' },
    },
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
      name: 'renderer-nothing-imports-app',
      comment: 'renderer/app composes the screens into the frame; only the entry (main.tsx) imports it',
      severity: 'error',
      from: { path: '^renderer/', pathNot: '^renderer/(app/|main\\.tsx$)' },
      to: { path: '^renderer/app/' },
    },
    {
      name: 'renderer-components-below-screens',
      comment: 'renderer layers app → screens → components → queries → api/shared: a component never knows a screen',
      severity: 'error',
      from: { path: '^renderer/components/' },
      to: { path: '^renderer/(screens|app)/' },
    },
    {
      name: 'renderer-queries-below-components',
      comment: 'the query layer holds data and writes, no view: it imports no component, screen, router or preferences',
      severity: 'error',
      from: { path: '^renderer/queries/' },
      to: { path: '^renderer/(components|screens|app)/|^renderer/(router|preferences)\\.ts$' },
    },
    {
      name: 'renderer-api-at-the-bottom',
      comment:
        'api.ts (the bridge to the core), router.ts and preferences.ts import nothing of the renderer above them',
      severity: 'error',
      from: { path: '^renderer/(api|router|preferences)\\.ts$' },
      to: { path: '^renderer/(components|screens|app|queries)/' },
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
      comment:
        'electron/core runs in plain Node tests: neither electron nor electron-store (which imports it); main.ts passes the store in',
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
      comment: 'no import circle anywhere (shared, service, electron, renderer): type-only imports count',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-model-imports-nothing',
      comment: 'service/model holds the records and the error every layer shares, so it imports nothing of the service',
      severity: 'error',
      from: { path: '^service/model/' },
      to: { path: '^service/', pathNot: '^service/model/' },
    },
    {
      name: 'service-xml-and-oauth-below-store-and-http',
      comment:
        'representations and the OAuth provider know records (model/), never where they are stored or how a request arrives',
      severity: 'error',
      from: { path: '^service/(xml|oauth)/' },
      to: { path: '^service/(store|http|resources|data)/' },
    },
    {
      name: 'service-store-below-http',
      comment: 'the store serves every layer above it and imports none of them',
      severity: 'error',
      from: { path: '^service/store/' },
      to: { path: '^service/(http|resources|xml|oauth|data)/|^service/[^/]+$' },
    },
    {
      name: 'service-cli-only-from-main',
      comment: 'service/cli is the operator CLI: main.ts starts it, and nothing else in the service leans on it',
      severity: 'error',
      from: { path: '^service/', pathNot: '^service/(main[.]ts|cli/)' },
      to: { path: '^service/cli/' },
    },
    {
      name: 'service-resource-rooms-apart',
      comment:
        'a room of service/resources imports no other room: what several use lives in resources/shared/, which imports none of them',
      severity: 'error',
      from: { path: '^service/resources/([^/]+)/' },
      to: { path: '^service/resources/', pathNot: '^service/resources/($1|shared)/' },
    },
    {
      name: 'service-http-below-resources',
      comment: 'service/http holds the rules every resource shares; it never reaches into a resource',
      severity: 'error',
      from: { path: '^service/http/' },
      to: { path: '^service/resources/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^test/' },
  },
};
