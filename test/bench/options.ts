/** `npm run bench [-- --only S1,S5] [--synthetic N] [--large N] [--terms N] [--clients N] [--catalogs DIR] [--duration S] [--connections N] [--write|--no-write] [--minutes N --database D --nodes N] [--cpu-prof DIR]` */
export interface BenchOptions {
  /** Scenario ids to run (all when empty). */
  only: string[];
  /** Synthetic titles for the large-catalog scenarios (S4–S6), on top of the demo catalog. */
  synthetic: number;
  /** Also measure S4 and S5 at this size (their 1M point); 0 skips it. */
  largeSynthetic: number;
  /** Terms S4 and S5 each ask once per catalog size (fewer when the catalog has fewer). */
  terms: number;
  /** Where synthetic catalogs' SQLite files are kept and reused across runs ('' : a fresh file each run). */
  catalogDir: string;
  /** Client processes for every row; 0: as many as make the bare server > 5% faster (context.ts). */
  clients: number;
  durationMs: number;
  warmupMs: number;
  connections: number;
  /** Rewrite docs/BENCHMARKS.md (default for a full run; a run of chosen scenarios only prints). */
  write: boolean;
  /** Profile the service's process over the measured windows of S1–S6 and S8 into this folder ('' : no profile; profile.ts). */
  cpuProfDir: string;
  /** SOAK: minutes of load, the store, service nodes on it (more than one: PostgreSQL). */
  soak: { minutes: number; database: 'sqlite' | 'postgres'; nodes: number };
}

function database(raw: string | undefined): 'sqlite' | 'postgres' {
  if (raw === undefined || raw === 'sqlite' || raw === 'postgres') return raw ?? 'sqlite';
  throw new Error(`--database needs sqlite or postgres, not "${raw}"`);
}

export function parseOptions(argv: string[]): BenchOptions {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const number = (flag: string, fallback: number) => {
    const raw = value(flag);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a number, not "${raw}"`);
    return n;
  };
  const only = (value('--only') ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  const durationMs = number('--duration', 5) * 1000;
  return {
    only,
    synthetic: number('--synthetic', 100_000),
    largeSynthetic: number('--large', 0),
    terms: Math.max(1, Math.floor(number('--terms', 2000))),
    clients: Math.floor(number('--clients', 0)),
    catalogDir: value('--catalogs') ?? '',
    durationMs,
    warmupMs: Math.min(1500, Math.max(200, durationMs / 4)),
    connections: number('--connections', 50),
    write: argv.includes('--write') || (only.length === 0 && !argv.includes('--no-write')),
    cpuProfDir: value('--cpu-prof') ?? '',
    soak: { minutes: number('--minutes', 2), database: database(value('--database')), nodes: number('--nodes', 1) },
  };
}
