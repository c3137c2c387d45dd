// `node scripts/suite-cpu.mjs [--json <file>] -- <command> [args…]`: runs a command (e.g. `npm test`)
// and prints where its CPU went, by kind of process (vitest workers, Chromium, service children,
// PostgreSQL, the static checks…), with the minor page faults each kind took: on a virtual machine
// whose freed memory goes back to its host, a first touch of a page can cost ~10 µs of CPU. Linux
// only: it reads /proc twice a second and keeps, for every process below the command, the highest
// CPU time seen, so a process that lives under half a second is missed (the total beside the table
// says how much that left out).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const SAMPLE_MS = 500;
const TICKS_PER_S = 100; // USER_HZ on Linux

/** Kinds in order: the first whose pattern matches a command line names it. */
const KINDS = [
  ['chromium renderer', /chrom.*--type=renderer/],
  ['chromium gpu-process', /chrom.*--type=gpu-process/],
  ['chromium utility', /chrom.*--type=utility/],
  ['chromium browser', /chromium|headless_shell/],
  ['postgresql', /^postgres|bin\/postgres|initdb/],
  ['check:code (tsc + eslint)', /check-code\.mjs/],
  ['format:check (biome)', /biome/],
  ['lint:imports (depcruise)', /depcruise|dependency-cruiser/],
  ['esbuild', /esbuild/],
  ['build.mjs (vite)', /scripts\/build\.mjs/],
  ['vitest worker', /vitest\/dist\/workers|vitest\/suppress-warnings/],
  ['vitest main', /vitest\.mjs|\.bin\/vitest/],
  ['service child', /scripts\/service\.mjs|service\/main\.ts|dist\/service\.mjs/],
  ['web host', /web-host\.mjs/],
  ['start.mjs', /scripts\/start\.mjs/],
  ['tsx child (bench, soak, helpers)', /tsx/],
];

/** [ppid, cpu seconds, command line, minor page faults] of a process, or null once it is gone. */
function readProcess(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return [Number(fields[1]), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S, args, Number(fields[7])];
  } catch {
    return null;
  }
}

/** One pass over /proc: every process whose parent is already known joins `seen`. */
function sample(seen) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const read = readProcess(pid);
    if (!read) continue;
    const [ppid, cpu, args, faults] = read;
    const known = seen.get(pid);
    if (known) {
      known.cpu = Math.max(known.cpu, cpu);
      known.faults = Math.max(known.faults, faults);
      if (args) known.args = args;
    } else if (seen.has(ppid)) {
      seen.set(pid, { ppid, cpu, args, faults });
    }
  }
}

function kindOf(args) {
  return KINDS.find(([, re]) => re.test(args))?.[0] ?? `other: ${args.slice(0, 80)}`;
}

function report(seen, rootPid) {
  const byKind = new Map();
  for (const [pid, { cpu, args, faults }] of seen) {
    if (pid === rootPid) continue;
    const kind = kindOf(args);
    const entry = byKind.get(kind) ?? { cpu: 0, count: 0, faults: 0 };
    entry.cpu += cpu;
    entry.count += 1;
    entry.faults += faults;
    byKind.set(kind, entry);
  }
  const total = [...byKind.values()].reduce((s, e) => s + e.cpu, 0);
  const rows = [...byKind].sort((a, b) => b[1].cpu - a[1].cpu);
  for (const [kind, { cpu, count, faults }] of rows)
    console.log(
      `${cpu.toFixed(1).padStart(8)} s ${((100 * cpu) / total).toFixed(1).padStart(5)}% ${String(count).padStart(5)}× ${(faults / 1e6).toFixed(2).padStart(6)}M faults  ${kind}`,
    );
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  const own = (userCPUTime + systemCPUTime) / 1e6;
  console.log(`${total.toFixed(1).padStart(8)} s sampled (this sampler itself: ${own.toFixed(1)} s)`);
}

const split = process.argv.indexOf('--');
if (split === -1 || split === process.argv.length - 1) {
  console.error('usage: node scripts/suite-cpu.mjs [--json <file>] -- <command> [args…]');
  process.exit(2);
}
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt !== -1 && jsonAt < split ? process.argv[jsonAt + 1] : null;
const [command, ...args] = process.argv.slice(split + 1);
const child = spawn(command, args, { stdio: 'inherit' });
const seen = new Map([[child.pid, { ppid: process.pid, cpu: 0, args: [command, ...args].join(' '), faults: 0 }]]);
const timer = setInterval(() => sample(seen), SAMPLE_MS);
child.once('close', (code, signal) => {
  clearInterval(timer);
  console.log(`\n${[command, ...args].join(' ')}: exit ${code ?? signal}; CPU by kind of process:`);
  report(seen, child.pid);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(Object.fromEntries(seen)));
  process.exitCode = code ?? 1;
});
