import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { given } from '../apps/server/src/testing/given.ts';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { startTestApp } from '../apps/server/src/testing/test-app.ts';
import { ACTIONS, type Action, type ActionResult, type LoadPeople, type LoadPerson, type LoadWorld } from './load-world.ts';
import { percentile } from './report.ts';
import { backgroundWork, metric, metricsOf } from './metrics.ts';
import { benchDatabase } from './setup.ts';
import { uploadBatch, type BatchFile } from './transfer.ts';

const PEOPLE = Number(process.env.BENCH_LOAD_PEOPLE ?? 200);
const DURATION_MS = Number(process.env.BENCH_LOAD_MS ?? 5 * 60_000);
const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 3);
/** Latencies of actions started in the first minute (a fifth of a shorter run) are left out: the server warms up. */
const WARM_UP_MS = Math.min(60_000, DURATION_MS / 5);
/** The people are shared among this many worker threads. */
const WORKERS = 2;
const THINK_MS: [number, number] = [5_000, 25_000];
const ALONE_TIMES = 20;
const SAMPLE_EVERY_MS = 5_000;

const WORDS = (
  'budget roadmap invoice contract design review meeting notes quarterly report hiring plan launch customer ' +
  'support release schedule marketing campaign research summary onboarding checklist security audit vendor ' +
  'proposal travel expense policy handbook sprint retrospective backlog pricing analysis forecast revenue ' +
  'partner agreement workshop agenda training materials feedback survey interview script product vision ' +
  'strategy architecture diagram database migration storage backup incident postmortem deadline milestone ' +
  'translation glossary office lease furniture inventory warehouse shipping logistics newsletter archive ' +
  'photo gallery brochure letterhead template signature approval compliance privacy statement annual'
).split(' ');

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const sentence = () => Array.from({ length: 8 + Math.floor(Math.random() * 10) }, () => pick(WORDS)).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a run made, each thing undone (in reverse) whether the run ended or failed on the way. */
class Leftovers {
  private undo: (() => Promise<unknown>)[] = [];
  add(fn: () => Promise<unknown>) {
    this.undo.push(fn);
  }
  async clear() {
    for (const fn of this.undo.reverse()) await fn().catch((e: unknown) => console.error(`  could not clean up: ${String(e)}`));
  }
}

/**
 * A team's installation: PEOPLE members of one workspace (each with an API token and their own "My files" there),
 * made straight in the database, then Cabinet started as its own process (`cabinet serve`) on it, and the team's
 * folders, documents and files made through its API, their previews and search texts made before anyone comes.
 */
async function installation(leftovers: Leftovers): Promise<{ world: LoadWorld; people: LoadPerson[]; url: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-load-'));
  leftovers.add(async () => rmSync(dataDir, { recursive: true, force: true }));
  const own = process.env.DATABASE_URL ? await benchDatabase(process.env.DATABASE_URL) : undefined;
  if (own) leftovers.add(() => own.drop());
  const database = await openDatabase({ databaseUrl: own?.url, dataDir });
  const t = await (async () => {
    try {
      await migrate(database);
      return await startTestApp({ DATA_DIR: dataDir, CHECK_RESPONSES: 'false' }, { db: { database, url: own?.url, drop: () => database.close() } });
    } catch (error) {
      await database.close().catch(() => {});
      throw error;
    }
  })();
  const g = given(t.ctx, t.url);
  const people: LoadPerson[] = [];
  let owner: Awaited<ReturnType<typeof g.person>>;
  try {
    owner = await g.person('Owner');
    for (let n = 0; n < PEOPLE; n++) {
      const p = await g.person(`Member ${n + 1}`);
      people.push({ token: p.token, homeId: await g.membership(p, owner.workspace.id, 'member') });
    }
  } finally {
    await t.close();
    await database.close().catch(() => {});
  }

  const server = await serverProcess({ DATA_DIR: dataDir, DATABASE_URL: own?.url ?? '' });
  leftovers.add(() => server.dispose());
  leftovers.add(() => server.stop());
  await server.start();
  const { raw } = server.as(owner.token);
  const must = async (method: string, p: string, body?: unknown) => {
    const r = await raw(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const ws = owner.workspace.id;
  const world: LoadWorld = { baseUrl: server.url, workspaceId: ws, folderIds: [], documentIds: [], fileIds: [], words: WORDS };
  const upload = (parentId: string, files: BatchFile[]) => uploadBatch(raw, ws, parentId, files);
  const pictures: string[] = [];
  for (let f = 0; f < 8; f++) {
    const top = await must('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `${pick(WORDS)} ${f}`, parentId: owner.workspace.rootId });
    world.folderIds.push(top.id);
    // Half the top folders hold a file of 8 MiB: downloads and the viewer take large files too.
    if (f % 2 === 0) world.fileIds.push(...(await upload(top.id, [{ name: `${pick(WORDS)} archive.bin`, bytes: randomBytes(8 * 1024 * 1024) }])));
    for (let s = 0; s < 4; s++) {
      const folder = await must('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `${pick(WORDS)} ${s}`, parentId: top.id });
      world.folderIds.push(folder.id);
      for (let d = 0; d < 3; d++) {
        const markdown = `# ${sentence()}\n\n${sentence()}.\n\n${sentence()}.\n\n- ${sentence()}\n- ${sentence()}\n`;
        const res = await fetch(
          `${server.url}/api/v1/workspaces/${ws}/documents/import?parentId=${folder.id}&fileName=${encodeURIComponent(`${pick(WORDS)} ${d}.md`)}&onConflict=keep_both`,
          { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/markdown' }, body: markdown },
        );
        if (res.status !== 201) throw new Error(`import: ${res.status} ${await res.text()}`);
        world.documentIds.push(((await res.json()) as { id: string }).id);
      }
      const picture = await sharp({
        create: { width: 800, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
      })
        .png()
        .toBuffer();
      const ids = await upload(folder.id, [
        { name: `${pick(WORDS)} ${s}.png`, bytes: picture },
        { name: `${pick(WORDS)} notes.txt`, bytes: Buffer.from(Array.from({ length: 40 + Math.floor(Math.random() * 200) }, sentence).join('\n')) },
        { name: `${pick(WORDS)} summary.md`, bytes: Buffer.from(Array.from({ length: 20 }, sentence).join('\n\n')) },
      ]);
      world.fileIds.push(...ids);
      pictures.push(ids[0]!);
    }
  }
  // The pictures' previews, and every background job the seeding made (search texts, text read from pictures), done
  // before anyone comes: the one person acting alone is not slowed by them.
  const settledBy = Date.now() + 300_000;
  for (;;) {
    const states = await Promise.all(pictures.map(async (id) => (await must('GET', `/items/${id}`)).preview?.state as string | undefined));
    const { busy, lag } = await backgroundWork(server.url);
    if (states.every((s) => s === 'ready') && busy === 0 && lag === 0) break;
    if (Date.now() > settledBy) {
      console.log(`  not settled after 5 minutes (previews: ${states.join(' ')}; jobs due or running: ${busy}; search lag: ${lag} s): going on`);
      break;
    }
    await sleep(1000);
  }
  return { world, people, url: server.url };
}

/** People acting in a worker thread of their own; resolves to what each of their actions took, and any error that escaped one. */
function acting(data: LoadPeople, workers: Set<Worker>): Promise<{ results: ActionResult[]; stray: string[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { module: new URL('./load-people.ts', import.meta.url).href, data } });
    workers.add(worker);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the people's worker ended (${code}) before it answered`)));
  });
}

interface MemorySample {
  atMs: number;
  rss: number;
  heap: number;
  cpuSeconds: number;
}

/** The server's memory and CPU time; undefined when it did not answer. */
async function sample(url: string, since: number): Promise<MemorySample | undefined> {
  const atMs = Date.now() - since;
  const text = await metricsOf(url);
  if (!text) return undefined;
  const s = {
    atMs,
    rss: metric(text, 'cabinet_process_resident_memory_bytes'),
    heap: metric(text, 'cabinet_nodejs_heap_size_used_bytes'),
    cpuSeconds: metric(text, 'cabinet_process_cpu_seconds_total'),
  };
  return Number.isNaN(s.rss) ? undefined : s;
}

interface ActionFigures {
  /** Latencies (ms) of actions started after the warm-up, failed ones at the time they failed. */
  p50: number;
  p95: number;
  p99: number;
  /** How many were timed (after the warm-up), and how many of all failed. */
  timed: number;
  failed: number;
  /** The same action by one person alone, before the others came. */
  aloneP50: number;
  aloneP95: number;
}

interface RunFigures {
  actions: Map<Action, ActionFigures>;
  errors: Map<string, number>;
  /** Failures of the pass alone (its figures are the baselines). */
  aloneErrors: number;
  memory: MemorySample[];
  rssAfterWarmUp: number;
  rssAtEnd: number;
  /** The server's CPU use over the load, as a share of one core. */
  cpu: number;
}

async function oneRun(run: number): Promise<RunFigures> {
  const leftovers = new Leftovers();
  const workers = new Set<Worker>();
  leftovers.add(async () => Promise.all([...workers].map((w) => w.terminate())));
  let sampler: NodeJS.Timeout | undefined;
  leftovers.add(async () => clearInterval(sampler));
  try {
    const { world, people, url } = await installation(leftovers);
    // The same actions by one person alone, on the same installation, first.
    const alone = (await acting({ world, people: [people[0]!], untilMs: 0, thinkMs: [0, 0], eachActionTimes: ALONE_TIMES }, workers)).results;
    const start = Date.now();
    const until = start + DURATION_MS;
    const memory: MemorySample[] = [];
    const take = () => void sample(url, start).then((s) => s && memory.push(s));
    take();
    // Samples while the people act, the last as their time is up (not after the last ones finished).
    sampler = setInterval(() => (Date.now() <= until + SAMPLE_EVERY_MS / 2 ? take() : undefined), SAMPLE_EVERY_MS);
    const share = Math.ceil(people.length / WORKERS);
    const outcomes = await Promise.allSettled(
      Array.from({ length: WORKERS }, (_, w) =>
        acting({ world, people: people.slice(w * share, (w + 1) * share), untilMs: until, thinkMs: THINK_MS }, workers),
      ),
    );
    clearInterval(sampler);
    const failedWorker = outcomes.find((o) => o.status === 'rejected');
    if (failedWorker) throw failedWorker.reason;
    const answers = outcomes.map((o) => (o as PromiseFulfilledResult<{ results: ActionResult[]; stray: string[] }>).value);
    const results = answers.flatMap((a) => a.results);
    memory.sort((a, b) => a.atMs - b.atMs);
    if (!memory.length) throw new Error('the server never answered /metrics');

    const actions: RunFigures['actions'] = new Map();
    const errors = new Map<string, number>();
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const all = results.filter((r) => r.action === action);
      const timed = all.filter((r) => r.startedAt - start >= WARM_UP_MS).map((r) => r.ms);
      const aloneMs = alone.filter((r) => r.action === action && !r.error).map((r) => r.ms);
      const at = (xs: number[], p: number) => (xs.length ? percentile(xs, p) : NaN);
      actions.set(action, {
        p50: at(timed, 50),
        p95: at(timed, 95),
        p99: at(timed, 99),
        timed: timed.length,
        failed: all.filter((r) => r.error).length,
        aloneP50: at(aloneMs, 50),
        aloneP95: at(aloneMs, 95),
      });
    }
    for (const r of results) if (r.error) errors.set(r.error, (errors.get(r.error) ?? 0) + 1);
    for (const e of answers.flatMap((a) => a.stray)) errors.set(`(outside an action) ${e}`, (errors.get(`(outside an action) ${e}`) ?? 0) + 1);
    const afterWarmUp = memory.find((m) => m.atMs >= WARM_UP_MS) ?? memory[0]!;
    const end = memory[memory.length - 1]!;
    const figures: RunFigures = {
      actions,
      errors,
      aloneErrors: alone.filter((r) => r.error).length,
      memory,
      rssAfterWarmUp: afterWarmUp.rss,
      rssAtEnd: end.rss,
      cpu: end.atMs > memory[0]!.atMs ? (end.cpuSeconds - memory[0]!.cpuSeconds) / ((end.atMs - memory[0]!.atMs) / 1000) : NaN,
    };
    printRun(run, figures);
    return figures;
  } finally {
    await leftovers.clear();
  }
}

const ms = (n: number) => (Number.isNaN(n) ? '–' : n >= 100 ? n.toFixed(0) : n.toFixed(1));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)}MB`;

function printRun(run: number, f: RunFigures) {
  console.log(`  run ${run + 1}: server CPU ${(f.cpu * 100).toFixed(0)} % of a core; memory (RSS / heap) every 30 s:`);
  console.log(
    `    ${f.memory
      .filter((m, i) => i === 0 || i === f.memory.length - 1 || Math.floor(m.atMs / 30_000) !== Math.floor(f.memory[i - 1]!.atMs / 30_000))
      .map((m) => `${(m.atMs / 1000).toFixed(0)}s ${mb(m.rss)}/${mb(m.heap)}`)
      .join(', ')}`,
  );
  for (const [action, a] of f.actions)
    console.log(
      `    ${action.padEnd(20)} timed=${a.timed} failed=${a.failed} p50=${ms(a.p50)} p95=${ms(a.p95)} p99=${ms(a.p99)} alone p50=${ms(a.aloneP50)} p95=${ms(a.aloneP95)} ms`,
    );
  if (f.aloneErrors) console.log(`    the pass alone: ${f.aloneErrors} failed`);
  for (const [message, n] of [...f.errors].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    error ×${n}: ${message}`);
}

const spread = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! } : { min: NaN, median: NaN, max: NaN };
};
const mmm = (xs: number[]) => {
  const s = spread(xs);
  return `${ms(s.min)} / ${ms(s.median)} / ${ms(s.max)}`;
};

/**
 * load: PEOPLE members of one team using one Cabinet (`cabinet serve`, its own process, on PGlite in its data folder
 * or on PostgreSQL with DATABASE_URL) for five minutes from loopback, each doing one thing after another with a pause
 * of 5–25 s between (a person reads what they opened): browse a folder (its children, path and item at once), open a
 * document and type five paragraphs into it, search, open a file in the viewer (item, signed URL, the first 256 KiB by
 * range, the picture's preview), download a file, upload 1–4 small files, upload a 16 MiB file. Three runs, each on a
 * new installation (BENCH_DATABASE does not apply: each run needs a new one).
 *
 * Per action: p50 / p95 / p99 (ms, nearest rank, of the actions started after the first minute, a failed one at the
 * time it failed) as min / median / max of the runs, how many were timed, how many failed (goal: none); the server's
 * memory every 5 s (goal: flat after warm-up). There is no bare baseline for a mix of everything at once (ADR 0065):
 * each action's p95 is printed beside its p95 done 20 times by one person alone on the same installation in the same
 * run, once the seeding's background work is done, so the ratio is what sharing the instance with the others costs;
 * each action's own overhead against a bare baseline is in its own benchmark (api-throughput, upload, doc-open,
 * edit-propagation, search-1m, thumbnails). The memory's baseline is the server's RSS after the warm-up.
 */
export default async function loadBench() {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`load: ${PEOPLE} people for ${DURATION_MS / 1000} s on ${database}, ${RUNS} runs`);
  const runs: RunFigures[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await oneRun(run));

  console.log(`  per action, min / median / max of ${RUNS} runs (ms):`);
  console.log(`    ${'action'.padEnd(20)} ${'timed'.padStart(6)} ${'failed'.padStart(6)}  p50 | p95 | p99 | alone p95`);
  for (const action of runs[0]!.actions.keys()) {
    const of = (k: keyof ActionFigures) => runs.map((r) => r.actions.get(action)![k]);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(
      `    ${action.padEnd(20)} ${String(sum(of('timed'))).padStart(6)} ${String(sum(of('failed'))).padStart(6)}  ${mmm(of('p50'))} | ${mmm(of('p95'))} | ${mmm(of('p99'))} | ${mmm(of('aloneP95'))}`,
    );
  }
  for (const action of runs[0]!.actions.keys()) {
    const p95 = spread(runs.map((r) => r.actions.get(action)!.p95)).median;
    const alone = spread(runs.map((r) => r.actions.get(action)!.aloneP95)).median;
    console.log(
      `bench: load ${action} p95 with ${PEOPLE} people value=${ms(p95)}ms baseline=${ms(alone)}ms ratio=${(p95 / alone).toFixed(2)} (baseline: alone)`,
    );
  }
  const failed = runs.reduce((n, r) => n + [...r.errors.values()].reduce((a, b) => a + b, 0), 0);
  console.log(`load: ${failed} actions failed in ${RUNS} runs (goal 0), and ${runs.reduce((n, r) => n + r.aloneErrors, 0)} of the passes alone`);
  const end = spread(runs.map((r) => r.rssAtEnd)).median;
  const warm = spread(runs.map((r) => r.rssAfterWarmUp)).median;
  console.log(`bench: load server memory at the end value=${mb(end)} baseline=${mb(warm)} ratio=${(end / warm).toFixed(2)} (baseline: after the warm-up)`);
}
