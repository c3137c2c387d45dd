/** The words after an operator command: `--name value` pairs, bare flags, positional words. */
export interface CommandOptions {
  get(name: string): string | undefined;
  has(name: string): boolean;
  positional: string[];
}

/** Flags that take no value. */
const BARE_FLAGS = new Set(['--json', '--legacy']);

export function options(args: string[]): CommandOptions {
  const named = new Map<string, string>();
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (BARE_FLAGS.has(a)) flags.add(a);
    else if (a.startsWith('--')) named.set(a, args[++i] ?? '');
    else positional.push(a);
  }
  return { get: (k) => named.get(k), has: (k) => flags.has(k) || named.has(k), positional };
}

/** Prints the right form of a command; exit code 2. */
export function usage(text: string): number {
  console.error(`usage: npm run service -- ${text}`);
  return 2;
}

/** Prints why a command could not be done; exit code 1. */
export function fail(text: string): number {
  console.error(text);
  return 1;
}
