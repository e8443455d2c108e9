// Where a CI run's CPU went, by kind of process: .ci/run starts this beside `npm test` and stops it (SIGTERM) at the
// end, when it prints each kind's core-seconds. The test stages keep both cores busy from start to end, so a run's length
// is its CPU work: this says which part of it to cut. Every 2 s it reads each process's CPU time from /proc (Linux; it
// prints nothing elsewhere); a process that lives less than that is missed, so the sums are a floor.
import { readdirSync, readFileSync } from 'node:fs';
import { setInterval, clearInterval } from 'node:timers';

const TICKS_PER_SECOND = 100;
const KINDS = [
  ['Chromium', /chrom|headless_shell/],
  ['Cabinet server processes', /cabinet\.mjs serve|serve-on-s3/],
  ['cabinet commands', /cabinet\.mjs/],
  ['Vitest workers', /vitest/],
  ['Playwright', /playwright/],
  ['lint (types, ESLint, Prettier, boundaries)', /check-code|eslint|prettier|depcruise/],
  ['the browser app build', /vite/],
  ['PostgreSQL', /^postgres/],
  ['npm', /^npm|npm-cli/],
  ['S3 test server', /radosgw|ceph|s3-server/],
  ['rclone, litmus, glewlwyd, haproxy, ffmpeg', /rclone|litmus|glewlwyd|haproxy|ffmpeg/],
];

/** CPU ticks so far of each process (by pid and start time), and the kind of each, named when first seen. */
const ticks = new Map();
const kinds = new Map();
const before = new Map();
let first = true;

/** The run that started this: once it is gone (stopped without stopping this), so is this. */
const run = process.ppid;

function sample() {
  if (process.ppid !== run) process.exit(0);
  let pids;
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = `${pid}:${fields[19]}`;
      const used = Number(fields[11]) + Number(fields[12]);
      if (!kinds.has(key)) {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        kinds.set(key, KINDS.find(([, pattern]) => pattern.test(command))?.[0] ?? (command ? 'other processes' : 'the kernel'));
        // What ran before this started is not the run's.
        if (first) before.set(key, used);
      }
      ticks.set(key, used - (before.get(key) ?? 0));
    } catch {
      // Gone meanwhile.
    }
  }
  first = false;
}

/** The machine's CPU time so far, all cores, from /proc/stat's first line: [user, system, idle] in seconds. */
function machine() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return [f[0] + f[1], f[2] + f[5] + f[6], f[3] + f[4]].map((t) => t / TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}
const machineAtStart = machine();

function summary() {
  const byKind = new Map();
  for (const [key, used] of ticks) byKind.set(kinds.get(key), (byKind.get(kinds.get(key)) ?? 0) + used / TICKS_PER_SECOND);
  const total = [...byKind.values()].reduce((a, b) => a + b, 0);
  if (!total) return;
  console.log(`CPU by kind of process (core-seconds, sampled every 2 s: a floor), ${Math.round(total)} in all:`);
  for (const [kind, seconds] of [...byKind].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(Math.round(seconds)).padStart(6)}  ${((100 * seconds) / total).toFixed(1).padStart(5)} %  ${kind}`);
  // Whether the cores were busy the whole run (then only less work makes it shorter), and how much of it the kernel's.
  const now = machine();
  if (machineAtStart && now) {
    const [user, system, idle] = now.map((t, i) => t - machineAtStart[i]);
    console.log(
      `The machine's cores: ${Math.round(user + system)} core-seconds busy (${Math.round(user)} user, ${Math.round(system)} kernel), ${Math.round(idle)} idle.`,
    );
  }
}

sample();
const timer = setInterval(sample, 2000);
process.once('SIGTERM', () => {
  clearInterval(timer);
  sample();
  summary();
  process.exit(0);
});
