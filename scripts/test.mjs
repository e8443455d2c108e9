// npm test: every check and test, in three stages, each part timed (ADR 0077).
//   1. the build (the browser app's and the server's) and then Vitest's system tests, beside lint (Prettier, the type
//      check with ESLint in one pass, the module boundaries) and then the unit tests: the system tests wait on restarts,
//      deadlines and subprocesses far more than they compute, and lint, on one core for most of its time, uses that time;
//   2. Vitest's integration tests, alone: their three workers keep both cores busy by themselves;
//   3. the built app (its size budget, then Playwright in Chromium), alone: its three browsers and the app keep both cores
//      busy by themselves.
// On this kind of machine, parts that each keep both cores busy finish sooner one after the other than side by side
// (measured: Vitest's files beside lint 633 s, one after the other 535 s; the PostgreSQL copies of the integration tests
// and the unit tests moved beside lint and the system tests made that stage 581 s, 176 s longer, and saved 163 s of the
// next); side by side go only parts that leave a core idle.
// A stage starts only when everything in the one before has passed; a summary of the times ends the run.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

/** Each stage's lanes run side by side; a lane's scripts run one after another, the next only once one has passed. */
const stages = [
  {
    name: 'checks, system',
    lanes: [
      ['build', 'test:system'],
      ['lint', 'test:unit'],
    ],
  },
  { name: 'integration', lanes: [['test:integration']] },
  { name: 'browser', lanes: [['test:browser']] },
];

// Every process of the run asks the C library for transparent huge pages where it allocates (ADR 0077): a page fault
// costs this machine's virtual CPUs dearly, and scrypt's 32 MiB per password hash, among others, is new memory each time.
const env = { ...process.env, GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1'].filter(Boolean).join(':') };

const started = Date.now();
const times = [];
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs `npm run <script>`; unless it is `live` its output is held and printed whole when it ends, so lines never interleave. */
function run(script, live) {
  return new Promise((resolve) => {
    const begun = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { env, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const took = Date.now() - begun;
      if (!live) process.stdout.write(Buffer.concat(output));
      console.log(`\n── ${script}: ${code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(took)}`);
      resolve({ ok: code === 0, line: `  ${script.padEnd(14)} ${seconds(took)}` });
    });
  });
}

/** A lane's scripts one after another, stopping at the first that fails; the first lane of a stage (its longest) prints as it goes. */
async function lane(scripts, live) {
  const results = [];
  for (const script of scripts) {
    const result = await run(script, live);
    results.push(result);
    if (!result.ok) break;
  }
  return results;
}

let ok = true;
for (const stage of stages) {
  const begun = Date.now();
  console.log(`\n══ ${stage.name}: ${stage.lanes.map((l) => l.join(' then ')).join(', ')}`);
  const results = (await Promise.all(stage.lanes.map((l, i) => lane(l, i === 0)))).flat();
  times.push(`${stage.name.padEnd(16)} ${seconds(Date.now() - begun)}`, ...(results.length > 1 ? results.map((r) => r.line) : []));
  if (results.some((r) => !r.ok)) {
    ok = false;
    break;
  }
}
console.log(`\n══ npm test ${ok ? 'passed' : 'failed'} in ${seconds(Date.now() - started)}\n${times.join('\n')}`);
process.exit(ok ? 0 : 1);
