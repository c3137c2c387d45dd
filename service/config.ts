import { join } from 'node:path';

/** How the service process is started: flags win over environment variables over defaults. */
export interface ServiceConfig {
  host: string;
  /** 0 asks the system for a free port; the base URL then carries the port actually bound. */
  port: number;
  /** Public base URL; defaults to http://host:port. */
  baseUrl: string;
  /** False when baseUrl is the default derived from host and port (so it follows a `--port 0`). */
  baseUrlGiven: boolean;
  dataDir: string;
  /** postgres://… to run on PostgreSQL instead of the SQLite file in dataDir. */
  databaseUrl: string | undefined;
  /**
   * Trust X-Forwarded-Proto/-For from a reverse proxy (Fastify's trustProxy). A TLS-terminating
   * proxy needs it, or OAuth base strings say http where the client signed https.
   */
  trustProxy: boolean;
  /** `--demo`: the sign-in page lists the demo subscriber's login and password (the desktop app's embedded service). */
  demo: boolean;
  /** False with `--no-bulk-replace` or MARQUEE_BULK_REPLACE=0: a queue PUT answers 405, as a service without it would. */
  bulkReplace: boolean;
  /** Pino's level for Fastify's JSON log (`info`: one line per request); `silent`, the default, logs nothing. */
  logLevel: LogLevel;
  /** False with `--no-metrics` or MARQUEE_METRICS=0: no /metrics and nothing counted per request. */
  metrics: boolean;
  /** A bearer token that opens /metrics to callers beyond loopback (resources/operator/access.ts). */
  metricsToken: string | undefined;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const FLAGS = {
  host: { flag: '--host', env: 'MARQUEE_HOST' },
  port: { flag: '--port', env: 'MARQUEE_PORT' },
  baseUrl: { flag: '--base-url', env: 'MARQUEE_BASE_URL' },
  dataDir: { flag: '--data-dir', env: 'MARQUEE_DATA_DIR' },
  databaseUrl: { flag: '--database-url', env: 'DATABASE_URL' },
  trustProxy: { flag: '--trust-proxy', env: 'MARQUEE_TRUST_PROXY' },
  logLevel: { flag: '--log-level', env: 'MARQUEE_LOG_LEVEL' },
  metricsToken: { flag: '--metrics-token', env: 'MARQUEE_METRICS_TOKEN' },
} as const;

/** Settings without a value: present or not. */
const SWITCHES = { demo: { flag: '--demo', env: 'MARQUEE_DEMO' } } as const;

export const SETTINGS_HELP = [
  ...Object.values(FLAGS).map((f) => `${f.flag} <value> (or ${f.env})`),
  ...Object.values(SWITCHES).map((f) => `${f.flag} (or ${f.env}=1)`),
  '--no-bulk-replace (or MARQUEE_BULK_REPLACE=0)',
  '--no-metrics (or MARQUEE_METRICS=0)',
].join('\n  ');

/** Splits argv into settings and the remaining words (the operator command, if any). */
export function parseConfig(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { config: ServiceConfig; rest: string[] } {
  const values: Partial<Record<keyof typeof FLAGS, string>> = {};
  const rest: string[] = [];
  let demo = false;
  let bulkReplace = true;
  let metrics = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === SWITCHES.demo.flag) {
      demo = true;
      continue;
    }
    if (arg === '--no-bulk-replace') {
      bulkReplace = false;
      continue;
    }
    if (arg === '--no-metrics') {
      metrics = false;
      continue;
    }
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const key = (Object.keys(FLAGS) as Array<keyof typeof FLAGS>).find((k) => FLAGS[k].flag === name);
    if (!key) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    values[key] = value;
  }
  // An empty environment variable counts as unset (`MARQUEE_PORT= npm run service`).
  const pick = (k: keyof typeof FLAGS) => values[k] ?? (env[FLAGS[k].env] || undefined);
  const host = pick('host') ?? '127.0.0.1';
  const rawPort = pick('port') ?? '8710';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new Error(`invalid ${FLAGS.port.flag} (or ${FLAGS.port.env}): ${rawPort} (a number from 0 to 65535)`);
  const databaseUrl = pick('databaseUrl');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./i.test(databaseUrl)) {
    throw new Error(
      `invalid ${FLAGS.databaseUrl.flag} (or ${FLAGS.databaseUrl.env}): expected postgres://user:password@host:port/database, got ${JSON.stringify(redact(databaseUrl))}`,
    );
  }
  const baseUrl = pick('baseUrl');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/i.test(baseUrl))
    throw new Error(
      `invalid ${FLAGS.baseUrl.flag} (or ${FLAGS.baseUrl.env}): ${baseUrl} (expected http://host[:port] or https://…)`,
    );
  const metricsToken = pick('metricsToken');
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new Error(
      `invalid ${FLAGS.metricsToken.flag} (or ${FLAGS.metricsToken.env}): at least 16 characters, so it cannot be guessed`,
    );
  return {
    config: {
      host,
      port,
      baseUrl: (baseUrl ?? defaultBaseUrl(host, port)).replace(/\/+$/, ''),
      baseUrlGiven: baseUrl !== undefined,
      dataDir: pick('dataDir') ?? join(process.cwd(), 'data'),
      databaseUrl,
      trustProxy: trustProxyOf(pick('trustProxy')),
      demo: demo || switchOf(env[SWITCHES.demo.env], SWITCHES.demo.env),
      bulkReplace:
        bulkReplace && (!env.MARQUEE_BULK_REPLACE || switchOf(env.MARQUEE_BULK_REPLACE, 'MARQUEE_BULK_REPLACE')),
      logLevel: logLevelOf(pick('logLevel')),
      metrics: metrics && (!env.MARQUEE_METRICS || switchOf(env.MARQUEE_METRICS, 'MARQUEE_METRICS')),
      metricsToken,
    },
    rest,
  };
}

/** A setting echoed in an error, with anything that looks like a password after a colon hidden. */
function redact(value: string): string {
  return value.replace(/:[^:@/]*@/, ':…@');
}

/** http://host:port, with a wildcard address replaced by loopback and an IPv6 literal bracketed. */
export function defaultBaseUrl(host: string, port: number): string {
  const hostForUrl = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${hostForUrl}:${port}`;
}

/** Silent unless asked: the embedded service (electron/embedded-service.ts) passes no level and so logs nothing. */
function logLevelOf(value: string | undefined): LogLevel {
  if (value === undefined) return 'silent';
  const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
  if (!level)
    throw new Error(
      `invalid ${FLAGS.logLevel.flag} (or ${FLAGS.logLevel.env}): ${value} (one of ${LOG_LEVELS.join(', ')})`,
    );
  return level;
}

function trustProxyOf(value: string | undefined): boolean {
  return switchOf(value, 'trust-proxy setting');
}

function switchOf(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || /^(0|false|no|off)$/i.test(value)) return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  throw new Error(`invalid ${name} (true or false): ${value}`);
}
