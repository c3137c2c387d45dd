import { join } from 'node:path';

/** How the service process is started: flags win over environment variables over defaults. */
export interface ServiceConfig {
  host: string;
  port: number;
  /** Public base URL; defaults to http://host:port. */
  baseUrl: string;
  dataDir: string;
  /** postgres://… to run on PostgreSQL instead of the SQLite file in dataDir. */
  databaseUrl: string | undefined;
}

const FLAGS = {
  host: { flag: '--host', env: 'MARQUEE_HOST' },
  port: { flag: '--port', env: 'MARQUEE_PORT' },
  baseUrl: { flag: '--base-url', env: 'MARQUEE_BASE_URL' },
  dataDir: { flag: '--data-dir', env: 'MARQUEE_DATA_DIR' },
  databaseUrl: { flag: '--database-url', env: 'DATABASE_URL' },
} as const;

export const SETTINGS_HELP = Object.values(FLAGS).map((f) => `${f.flag} <value> (or ${f.env})`).join('\n  ');

/** Splits argv into settings and the remaining words (the operator command, if any). */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): { config: ServiceConfig; rest: string[] } {
  const values: Partial<Record<keyof typeof FLAGS, string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const key = (Object.keys(FLAGS) as Array<keyof typeof FLAGS>).find((k) => FLAGS[k].flag === name);
    if (!key) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    values[key] = value;
  }
  const pick = (k: keyof typeof FLAGS) => values[k] ?? env[FLAGS[k].env] ?? undefined;
  const host = pick('host') ?? '127.0.0.1';
  const port = Number(pick('port') ?? 8710);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${pick('port')}`);
  const hostForUrl = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    config: {
      host,
      port,
      baseUrl: (pick('baseUrl') ?? `http://${hostForUrl}:${port}`).replace(/\/+$/, ''),
      dataDir: pick('dataDir') ?? join(process.cwd(), 'data'),
      databaseUrl: pick('databaseUrl') || undefined,
    },
    rest,
  };
}
