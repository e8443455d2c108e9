import { mkdtempSync } from 'node:fs';
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
import { benchDatabase } from './setup.ts';

const PEOPLE = Number(process.env.BENCH_LOAD_PEOPLE ?? 200);
const DURATION_MS = Number(process.env.BENCH_LOAD_MS ?? 5 * 60_000);
const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 3);
/** Latencies of actions started in the first minute (a fifth of a shorter run) are left out: the server warms up. */
const WARM_UP_MS = Math.min(60_000, DURATION_MS / 5);
/** The people are shared among this many worker threads. */
const WORKERS = 2;
const THINK_MS: [number, number] = [5_000, 25_000];
const ALONE_TIMES = 10;
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

interface Installation {
  world: LoadWorld;
  people: LoadPerson[];
  server: Awaited<ReturnType<typeof serverProcess>>;
  dispose(): Promise<void>;
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const sentence = () => Array.from({ length: 8 + Math.floor(Math.random() * 10) }, () => pick(WORDS)).join(' ');

/**
 * A team's installation: PEOPLE members of one workspace (each with an API token and their own "My files" there),
 * made straight in the database, then Cabinet started as its own process (`cabinet serve`) on it, and the team's
 * folders, documents and files made through its API.
 */
async function installation(): Promise<Installation> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-load-'));
  const own = process.env.DATABASE_URL ? await benchDatabase(process.env.DATABASE_URL) : undefined;
  const database = await openDatabase({ databaseUrl: own?.url, dataDir });
  await migrate(database);
  const t = await startTestApp({ DATA_DIR: dataDir, CHECK_RESPONSES: 'false' }, { db: { database, url: own?.url, drop: () => database.close() } });
  const g = given(t.ctx, t.url);
  const owner = await g.person('Owner');
  const people: LoadPerson[] = [];
  for (let n = 0; n < PEOPLE; n++) {
    const p = await g.person(`Member ${n + 1}`);
    people.push({ token: p.token, homeId: await g.membership(p, owner.workspace.id, 'member') });
  }
  await t.close();
  await database.close().catch(() => {});

  const server = await serverProcess({ DATA_DIR: dataDir, DATABASE_URL: own?.url ?? '' });
  await server.start();
  const { raw } = server.as(owner.token);
  const must = async (method: string, p: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await raw(method, p, body, headers);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const ws = owner.workspace.id;
  const world: LoadWorld = { baseUrl: server.url, workspaceId: ws, folderIds: [], documentIds: [], fileIds: [], words: WORDS };
  const pictures: string[] = [];
  for (let f = 0; f < 8; f++) {
    const top = await must('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `${pick(WORDS)} ${f}`, parentId: owner.workspace.rootId });
    world.folderIds.push(top.id);
    for (let s = 0; s < 4; s++) {
      const folder = await must('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: `${pick(WORDS)} ${s}`, parentId: top.id });
      world.folderIds.push(folder.id);
      for (let d = 0; d < 3; d++) {
        const markdown = `# ${sentence()}\n\n${sentence()}.\n\n${sentence()}.\n\n- ${sentence()}\n- ${sentence()}\n`;
        const res = await fetch(
          `${server.url}/api/v1/workspaces/${ws}/documents/import?parentId=${folder.id}&fileName=${encodeURIComponent(`${pick(WORDS)} ${d}.md`)}&onConflict=keep_both`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/markdown' },
            body: markdown,
          },
        );
        if (res.status !== 201) throw new Error(`import: ${res.status} ${await res.text()}`);
        world.documentIds.push(((await res.json()) as { id: string }).id);
      }
      const picture = await sharp({
        create: { width: 800, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
      })
        .png()
        .toBuffer();
      const files = [
        { name: `${pick(WORDS)} ${s}.png`, bytes: picture },
        { name: `${pick(WORDS)} notes.txt`, bytes: Buffer.from(Array.from({ length: 40 + Math.floor(Math.random() * 200) }, sentence).join('\n')) },
        { name: `${pick(WORDS)} summary.md`, bytes: Buffer.from(Array.from({ length: 20 }, sentence).join('\n\n')) },
      ];
      const started = await must('POST', `/workspaces/${ws}/uploads/batch`, {
        uploads: files.map((x) => ({ parentId: folder.id, name: x.name, size: x.bytes.length, onConflict: 'keep_both' })),
      });
      const uploads = (started.results as { upload: { id: string; parts: { url: string }[] } }[]).map((r) => r.upload);
      await Promise.all(uploads.map(async (u, i) => void (await (await fetch(u.parts[0]!.url, { method: 'PUT', body: files[i]!.bytes })).arrayBuffer())));
      const done = await must('POST', '/uploads/complete', { uploads: uploads.map((u) => ({ id: u.id })) });
      const ids = (done.results as { item: { id: string } }[]).map((r) => r.item.id);
      world.fileIds.push(...ids);
      pictures.push(ids[0]!);
    }
  }
  // The pictures' previews made before the people come (the viewer shows a ready one).
  for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((r) => setTimeout(r, 500))) {
    const states = await Promise.all(pictures.map(async (id) => (await must('GET', `/items/${id}`)).preview?.state));
    if (states.every((s) => s === 'ready')) break;
  }
  return {
    world,
    people,
    server,
    async dispose() {
      await server.stop();
      await server.dispose();
      await own?.drop();
    },
  };
}

/** People acting in a worker thread of their own; resolves to what each of their actions took. */
function acting(data: LoadPeople): Promise<ActionResult[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { module: new URL('./load-people.ts', import.meta.url).href, data } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the people's worker exited with ${code}`)));
  });
}

interface MemorySample {
  atMs: number;
  rss: number;
  heap: number;
  cpuSeconds: number;
}

/** The server's memory and CPU time, from its own /metrics (the bench calls from loopback). */
async function sample(url: string, since: number): Promise<MemorySample | undefined> {
  const text = await fetch(`${url}/metrics`).then(
    (r) => r.text(),
    () => undefined,
  );
  if (!text) return undefined;
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return {
    atMs: Date.now() - since,
    rss: value('cabinet_process_resident_memory_bytes'),
    heap: value('cabinet_nodejs_heap_size_used_bytes'),
    cpuSeconds: value('cabinet_process_cpu_seconds_total'),
  };
}

interface RunFigures {
  /** Per action: p50, p95, p99 (ms) under load, how many, how many failed; and the same action done alone. */
  actions: Map<Action, { p50: number; p95: number; p99: number; count: number; errors: number; alone: number }>;
  errors: Map<string, number>;
  memory: MemorySample[];
  rssAfterWarmUp: number;
  rssAtEnd: number;
  /** The server's CPU use over the load, as a share of one core. */
  cpu: number;
}

async function oneRun(run: number): Promise<RunFigures> {
  const inst = await installation();
  try {
    const { world, people, server } = inst;
    // The same actions by one person alone, on the same installation, first.
    const alone = await acting({ world, people: [people[0]!], untilMs: 0, thinkMs: [0, 0], eachActionTimes: ALONE_TIMES });
    const start = Date.now();
    const memory: MemorySample[] = [];
    const first = await sample(server.url, start);
    if (first) memory.push(first);
    const sampler = setInterval(() => {
      void sample(server.url, start).then((s) => s && memory.push(s));
    }, SAMPLE_EVERY_MS);
    const share = Math.ceil(people.length / WORKERS);
    const results = (
      await Promise.all(
        Array.from({ length: WORKERS }, (_, w) =>
          acting({ world, people: people.slice(w * share, (w + 1) * share), untilMs: start + DURATION_MS, thinkMs: THINK_MS }),
        ),
      )
    ).flat();
    clearInterval(sampler);
    const last = await sample(server.url, start);
    if (last) memory.push(last);

    const actions: RunFigures['actions'] = new Map();
    const errors = new Map<string, number>();
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const all = results.filter((r) => r.action === action);
      const timed = all.filter((r) => !r.error && r.startedAt - start >= WARM_UP_MS).map((r) => r.ms);
      const aloneMs = alone.filter((r) => r.action === action && !r.error).map((r) => r.ms);
      actions.set(action, {
        p50: timed.length ? percentile(timed, 50) : NaN,
        p95: timed.length ? percentile(timed, 95) : NaN,
        p99: timed.length ? percentile(timed, 99) : NaN,
        count: all.length,
        errors: all.filter((r) => r.error).length,
        alone: aloneMs.length ? percentile(aloneMs, 50) : NaN,
      });
    }
    for (const r of [...alone, ...results]) if (r.error) errors.set(r.error, (errors.get(r.error) ?? 0) + 1);
    const afterWarmUp = memory.find((m) => m.atMs >= WARM_UP_MS) ?? memory[0]!;
    const end = memory[memory.length - 1]!;
    const figures: RunFigures = {
      actions,
      errors,
      memory,
      rssAfterWarmUp: afterWarmUp.rss,
      rssAtEnd: end.rss,
      cpu: (end.cpuSeconds - memory[0]!.cpuSeconds) / ((end.atMs - memory[0]!.atMs) / 1000),
    };
    printRun(run, figures);
    return figures;
  } finally {
    await inst.dispose();
  }
}

const ms = (n: number) => (Number.isNaN(n) ? '–' : n >= 100 ? n.toFixed(0) : n.toFixed(1));
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function printRun(run: number, f: RunFigures) {
  console.log(`  run ${run + 1}: server CPU ${(f.cpu * 100).toFixed(0)} % of a core; memory (RSS / heap) every 30 s:`);
  console.log(
    `    ${f.memory
      .filter((m, i) => i === 0 || i === f.memory.length - 1 || Math.floor(m.atMs / 30_000) !== Math.floor(f.memory[i - 1]!.atMs / 30_000))
      .map((m) => `${(m.atMs / 1000).toFixed(0)}s ${mb(m.rss)}/${mb(m.heap)}`)
      .join(', ')}`,
  );
  for (const [action, a] of f.actions)
    console.log(`    ${action.padEnd(20)} n=${a.count} errors=${a.errors} p50=${ms(a.p50)} p95=${ms(a.p95)} p99=${ms(a.p99)} alone=${ms(a.alone)} ms`);
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
 * of 5–25 s between (a person reads what they opened): browse a folder (its children, path and item at once), open a document and type five paragraphs
 * into it, search, open a file in the viewer (item, signed URL, the first 256 KiB by range, the picture's preview),
 * download a file, upload 1–4 small files, upload a 16 MiB file. Three runs, each on a new installation.
 *
 * Per action: p50 / p95 / p99 (ms, after the first minute) as min / median / max of the runs, how many, how many
 * failed (goal: none); the server's memory every 5 s (goal: flat after warm-up). There is no bare baseline for a mix
 * of everything at once (ADR 0065): each action's figures are printed beside the same action done by one person alone
 * on the same installation in the same run, so the ratio is what sharing the instance with the others costs; each
 * action's own overhead against a bare baseline is in its own benchmark (api-throughput, upload, doc-open,
 * edit-propagation, search-1m, thumbnails). The memory's baseline is the server's RSS after the warm-up.
 */
export default async function loadBench() {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`load: ${PEOPLE} people for ${DURATION_MS / 1000} s on ${database}, ${RUNS} runs`);
  const runs: RunFigures[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await oneRun(run));

  console.log(`  per action, min / median / max of ${RUNS} runs (ms):`);
  console.log(`    ${'action'.padEnd(20)} ${'n'.padStart(6)} ${'errors'.padStart(6)}  p50 | p95 | p99 | alone (p50)`);
  for (const action of runs[0]!.actions.keys()) {
    const of = (k: 'p50' | 'p95' | 'p99' | 'alone' | 'count' | 'errors') => runs.map((r) => r.actions.get(action)![k]);
    const count = of('count').reduce((a, b) => a + b, 0);
    const errors = of('errors').reduce((a, b) => a + b, 0);
    console.log(
      `    ${action.padEnd(20)} ${String(count).padStart(6)} ${String(errors).padStart(6)}  ${mmm(of('p50'))} | ${mmm(of('p95'))} | ${mmm(of('p99'))} | ${mmm(of('alone'))}`,
    );
  }
  for (const action of runs[0]!.actions.keys()) {
    const p95 = spread(runs.map((r) => r.actions.get(action)!.p95)).median;
    const alone = spread(runs.map((r) => r.actions.get(action)!.alone)).median;
    console.log(`bench: load ${action} p95 with ${PEOPLE} people value=${ms(p95)}ms baseline=${ms(alone)}ms (alone) ratio=${(p95 / alone).toFixed(2)}`);
  }
  const errors = runs.reduce((n, r) => n + [...r.errors.values()].reduce((a, b) => a + b, 0), 0);
  console.log(`bench: load errors value=${errors} (goal 0)`);
  const end = spread(runs.map((r) => r.rssAtEnd)).median;
  const warm = spread(runs.map((r) => r.rssAfterWarmUp)).median;
  console.log(`bench: load server memory at the end value=${mb(end)} baseline=${mb(warm)} (after the warm-up) ratio=${(end / warm).toFixed(2)}`);
}
