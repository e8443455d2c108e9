import fc from 'fast-check';
import {
  apiFuzzer,
  describeCall,
  fuzzPerson,
  rank,
  readOperations,
  send,
  asBrowser,
  asTokenHolder,
  wrongAnswer,
  type Call,
} from '../apps/server/src/testing/api-fuzz.ts';
import { startBenchApp } from './setup.ts';

/*
 * `npm run fuzz [-- --calls N] [--seed S]`: the long fuzz (issue 24, part 7). At least N calls (10,000 unless said)
 * generated from the OpenAPI document with hostile values (apps/server/src/testing/api-fuzz.ts), sent by two people —
 * each through an API token and a browser session, each with a folder of their own named as a secret — and by a
 * visitor holding a public link of the first. Counts the answers by status; fails on any 5xx, any failure outside the
 * error envelope, and any leak: the second person's secret in an answer to the first or to the visitor, the first's in
 * an answer to the second. On PostgreSQL when DATABASE_URL is set, else PGlite. The seed is printed: a failure is
 * found again with it.
 */

const argument = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CALLS = Number(argument('--calls') ?? 10_000);
const SEED = Number(argument('--seed') ?? Math.floor(Math.random() * 2 ** 31));

interface Caller {
  name: string;
  /** Adds who they are to a call. */
  as(call: Call): Call;
  known: Record<string, string[]>;
  /** Secrets that must never be in an answer to them. */
  mustNotSee: string[];
  /** Their own secret: answers showing it prove the answers are read. */
  own?: string;
}

/** Both of a person's ways in, call by call. */
const either = (a: (c: Call) => Call, b: (c: Call) => Call) => {
  let n = 0;
  return (call: Call) => (n++ % 2 === 0 ? a(call) : b(call));
};
/** Two lists of ids and slugs as one: a person aims at their own things and at the other's. */
const merged = (a: Record<string, string[]>, b: Record<string, string[]>) =>
  Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, [...(a[k] ?? []), ...(b[k] ?? [])]]));

async function main(): Promise<void> {
  const app = await startBenchApp();
  const { url, port } = app.t;
  let exitCode = 0;
  try {
    const ada = await fuzzPerson(url, 'Ada');
    const bea = await fuzzPerson(url, 'Bea');
    const operations = await readOperations(url);
    const callers: Caller[] = [
      {
        name: 'Ada',
        as: either(asTokenHolder(ada.token), asBrowser(ada.browser, url)),
        known: merged(ada.known, bea.known),
        mustNotSee: [bea.secret],
        own: ada.secret,
      },
      {
        name: 'Bea',
        as: either(asTokenHolder(bea.token), asBrowser(bea.browser, url)),
        known: merged(bea.known, ada.known),
        mustNotSee: [ada.secret],
        own: bea.secret,
      },
      // The visitor knows Ada's link and every id of both; only the link's folder is theirs to see.
      { name: 'a link visitor', as: (call) => call, known: merged(ada.known, bea.known), mustNotSee: [ada.secret, bea.secret] },
    ];
    const ordered = [...operations].sort((a, b) => rank(a) - rank(b));
    const perOperation = Math.ceil(CALLS / (ordered.length * callers.length));
    const statuses = new Map<string, number>();
    const failures = new Map<string, string>();
    let sent = 0;
    let ownSeen = 0;
    const started = Date.now();
    console.log(`fuzz: seed ${SEED}, ${operations.length} operations × ${callers.length} callers × ${perOperation} calls`);
    for (const [index, op] of ordered.entries()) {
      for (const [c, caller] of callers.entries()) {
        const calls = fc.sample(apiFuzzer(caller.known).callsFor(op), { seed: SEED + index * 7 + c, numRuns: perOperation });
        for (const call of calls) {
          let res;
          try {
            res = await send(port, caller.as(call), { successes: true });
          } catch (error) {
            if ((error as { code?: string }).code === 'ERR_INVALID_CHAR') continue;
            failures.set(`no answer ${op.method} ${op.path}`, `${caller.name}: ${(error as Error).message} ← ${describeCall(call)}`);
            continue;
          }
          sent++;
          const klass = `${Math.floor(res.status / 100)}xx`;
          statuses.set(klass, (statuses.get(klass) ?? 0) + 1);
          const wrong = wrongAnswer(res);
          if (wrong) failures.set(`${res.status} ${op.method} ${op.path}`, `${caller.name}: ${wrong} ← ${describeCall(call)}`);
          if (caller.own && res.body.includes(caller.own)) ownSeen++;
          const leaked = caller.mustNotSee.find((secret) => res.body.includes(secret));
          if (leaked) failures.set(`leak ${op.method} ${op.path}`, `${caller.name} was shown ${leaked} ← ${describeCall(call)}`);
        }
      }
      if (index % 20 === 19) console.log(`  ${sent.toLocaleString('en')} calls, ${failures.size} failures`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const counts = [...statuses]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const leaks = [...failures.keys()].filter((k) => k.startsWith('leak')).length;
    const fives = [...failures.keys()].filter((k) => k.startsWith('5')).length;
    console.log(
      `fuzz: ${sent} calls in ${seconds} s (${counts}); operations with a 5xx: ${fives}; leaks: ${leaks}; other failures: ${failures.size - fives - leaks}; ` +
        `answers showing a person their own secret (so answers are read): ${ownSeen}`,
    );
    for (const [key, message] of failures) console.log(`  ✗ ${key}: ${message.slice(0, 500)}`);
    if (failures.size || sent < CALLS) exitCode = 1;
  } finally {
    await app.close();
  }
  process.exit(exitCode);
}

await main();
