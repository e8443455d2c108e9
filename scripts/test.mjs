// npm test: every check and test, in two stages, each part timed.
//   1. Vitest's unit and integration tests (vitest.config.ts says what runs where), and beside them lint (Prettier, the
//      type check with ESLint in one pass, the module boundaries) and the build (the browser app's and the server's): Vitest's files wait on
//      databases and sockets, and the checks use that time;
//   2. the built app (its size budget, then Playwright in Chromium), and beside it Vitest's system tests: those wait
//      on restarts, deadlines and subprocesses far more than they compute, and Playwright uses that time (ADR 0037).
// The second stage starts only when everything in the first has passed; a summary of the times ends the run.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

// The first script of a stage prints as it goes; the others' output is held and printed whole when each ends.
const stages = [
  { name: 'vitest, checks', scripts: ['test:vitest', 'lint', 'build'] },
  { name: 'browser, system', scripts: ['test:browser', 'test:system'] },
];

const started = Date.now();
const times = [];
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs `npm run <script>`; unless it is `live` its output is held and printed whole when it ends, so lines never interleave. */
function run(script, live) {
  return new Promise((resolve) => {
    const begun = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
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

let ok = true;
for (const stage of stages) {
  const begun = Date.now();
  console.log(`\n══ ${stage.name}: ${stage.scripts.join(', ')}`);
  const results = await Promise.all(stage.scripts.map((s, i) => run(s, i === 0)));
  times.push(`${stage.name.padEnd(16)} ${seconds(Date.now() - begun)}`, ...(results.length > 1 ? results.map((r) => r.line) : []));
  if (results.some((r) => !r.ok)) {
    ok = false;
    break;
  }
}
console.log(`\n══ npm test ${ok ? 'passed' : 'failed'} in ${seconds(Date.now() - started)}\n${times.join('\n')}`);
process.exit(ok ? 0 : 1);
