// The people of the load bench, in a worker thread of their own (the server runs as its own process): each
// does what a member of a team does in Cabinet, one thing after another with a pause between, until the time
// is up, and every action's time and outcome is posted back. Run through ts-worker.mjs.
import { createHash, randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { callingRoutes, withToken } from '../apps/server/src/testing/route-call.ts';
import { addParagraph, editor } from './collab.ts';
import { ACTIONS, type Action, type ActionResult, type LoadPeople, type LoadPerson } from './load-world.ts';
import { uploadBatch, uploadThroughCabinet } from './transfer.ts';

const LARGE = 16 * 1024 * 1024;
const PARAGRAPHS_TYPED = 5;
const TYPING_GAP_MS = 400;
const OPEN_WITHIN_MS = 30_000;

const { world, people, untilMs, thinkMs, eachActionTimes } = (workerData as { data: LoadPeople }).data;
const results: ActionResult[] = [];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const api = (path: string) => `${world.baseUrl}/api/v1${path}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// What escapes an action (a socket library's late error) is counted, not left to end the thread and lose the run.
const stray: string[] = [];
process.on('uncaughtException', (e) => void stray.push(messageOf(e)));
process.on('unhandledRejection', (e) => void stray.push(messageOf(e)));

/** Each person's calls with their token (testing/route-call.ts). */
const clients = new Map<LoadPerson, ReturnType<typeof callingRoutes>>();
function client(person: LoadPerson) {
  let c = clients.get(person);
  if (!c) clients.set(person, (c = callingRoutes(withToken(world.baseUrl, person.token))));
  return c;
}

/** A call that must succeed: any other answer is the action's failure, named by its status and error code (ids left out, so alike failures count together). */
async function ok(person: LoadPerson, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await client(person).raw(method, path, body);
  if (answer.status >= 300) throw new Error(`${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')} answered ${answer.status} ${answer.error?.code ?? ''}`);
  return answer.body;
}

/** Bytes from a URL (a signed one, or Cabinet's with the token), read to the end. */
async function bytes(person: LoadPerson, url: string, headers: Record<string, string> = {}): Promise<number> {
  const own = url.startsWith(world.baseUrl);
  const res = await fetch(url, { headers: { ...headers, ...(own ? { authorization: `Bearer ${person.token}` } : {}) } });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${new URL(url).pathname.replace(/[0-9a-f-]{36}/g, ':id')} answered ${res.status}`);
  return body.byteLength;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sentence = () => Array.from({ length: 6 + Math.floor(Math.random() * 8) }, () => pick(world.words)).join(' ');

/** Files to upload with their hashes, made before the action's clock starts: the client's work is not the server's time. */
interface Prepared {
  files: { bytes: Buffer; sha256: string }[];
}
const prepared = (count: number, size: () => number): Prepared => ({
  files: Array.from({ length: count }, () => {
    const b = randomBytes(size());
    return { bytes: b, sha256: sha256(b) };
  }),
});

async function uploadSmall(person: LoadPerson, { files }: Prepared): Promise<void> {
  await uploadBatch(
    client(person).raw,
    world.workspaceId,
    person.homeId,
    files.map((f) => ({ name: `${pick(world.words)} ${pick(world.words)}.bin`, bytes: f.bytes, sha256: f.sha256 })),
  );
}

/** A large file as the browser sends it: parts four at a time, signed as they are needed, then completed. */
async function uploadLarge(person: LoadPerson, { files }: Prepared): Promise<void> {
  const file = files[0]!;
  await uploadThroughCabinet(
    { raw: client(person).raw, workspace: { id: world.workspaceId, homeId: person.homeId } },
    `${pick(world.words)} recording.bin`,
    { chunks: [file.bytes], sha256: file.sha256 },
    file.bytes.length,
  );
}

/**
 * Opens a document as the editor does (timed until it is in sync), types paragraphs into it (each timed until the
 * server has taken it), and closes it. A failure while typing is the typing's, not the opening's.
 */
async function openDocument(person: LoadPerson, _input: undefined, startedAt: number, t0: number): Promise<void> {
  const e = editor(world.baseUrl, pick(world.documentIds), person.token);
  try {
    await within(e.whenSynced, OPEN_WITHIN_MS, 'the document did not open within 30 s');
    results.push({ action: 'open a document', startedAt, ms: performance.now() - t0 });
    for (let n = 0; n < PARAGRAPHS_TYPED; n++) {
      await sleep(TYPING_GAP_MS);
      const typed = { startedAt: Date.now(), t0: performance.now() };
      try {
        addParagraph(e.document, sentence());
        await taken(e.provider);
        results.push({ action: 'type', startedAt: typed.startedAt, ms: performance.now() - typed.t0 });
      } catch (error) {
        results.push({ action: 'type', startedAt: typed.startedAt, ms: performance.now() - typed.t0, error: messageOf(error) });
        return;
      }
    }
  } finally {
    e.destroy();
  }
}

function within<T>(promise: Promise<T>, ms: number, failure: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** Until the server has acknowledged every change the editor sent. */
function taken(provider: ReturnType<typeof editor>['provider']): Promise<void> {
  let check = () => {};
  const all = new Promise<void>((resolve) => {
    check = () => {
      if (provider.unsyncedChanges === 0) resolve();
    };
    provider.on('unsyncedChanges', check);
    check();
  });
  return within(all, 30_000, 'a typed change was not taken within 30 s').finally(() => provider.off('unsyncedChanges', check));
}

type Acting = Exclude<Action, 'type'>;

const prepare: Partial<Record<Acting, () => Prepared>> = {
  'upload small files': () => prepared(1 + Math.floor(Math.random() * 4), () => 8 * 1024 + Math.floor(Math.random() * 248 * 1024)),
  'upload a large file': () => prepared(1, () => LARGE),
};

const run: Record<Acting, (person: LoadPerson, input: any, startedAt: number, t0: number) => Promise<void>> = {
  async browse(person) {
    const id = Math.random() < 0.2 ? person.homeId : pick(world.folderIds);
    await Promise.all([
      ok(person, 'GET', `/workspaces/${world.workspaceId}/items/${id}/children`),
      ok(person, 'GET', `/items/${id}/ancestors`),
      ok(person, 'GET', `/items/${id}`),
    ]);
  },
  'open a document': openDocument,
  async search(person) {
    const q = Math.random() < 0.7 ? pick(world.words) : `${pick(world.words)} ${pick(world.words).slice(0, 3)}`;
    await ok(person, 'GET', `/workspaces/${world.workspaceId}/search?q=${encodeURIComponent(q)}`);
  },
  async 'open the viewer'(person) {
    const id = pick(world.fileIds);
    const [item, content] = await Promise.all([ok(person, 'GET', `/items/${id}`), ok(person, 'GET', `/items/${id}/content-url`)]);
    const reads: Promise<unknown>[] = [bytes(person, content.url, { range: 'bytes=0-262143' })];
    if (item.preview?.state === 'ready') reads.push(bytes(person, api(`/items/${id}/thumbnail?size=1024&v=${item.preview.v}`)));
    await Promise.all(reads);
  },
  async download(person) {
    await bytes(person, api(`/items/${pick(world.fileIds)}/content?download=1`));
  },
  'upload small files': uploadSmall,
  'upload a large file': uploadLarge,
};

async function act(person: LoadPerson, action: Acting): Promise<void> {
  const input = prepare[action]?.();
  const startedAt = Date.now();
  const t0 = performance.now();
  try {
    await run[action](person, input, startedAt, t0);
    // Opening a document posts its own time, before the typing.
    if (action !== 'open a document') results.push({ action, startedAt, ms: performance.now() - t0 });
  } catch (error) {
    results.push({ action, startedAt, ms: performance.now() - t0, error: messageOf(error) });
  }
}

const weighted = (Object.entries(ACTIONS) as [Acting, number][]).flatMap(([a, w]) => Array<Acting>(w).fill(a));
const think = () => thinkMs[0] + Math.random() * (thinkMs[1] - thinkMs[0]);

if (eachActionTimes) {
  for (const action of new Set(weighted)) for (let n = 0; n < eachActionTimes; n++) await act(people[0]!, action);
} else {
  await Promise.all(
    people.map(async (person) => {
      // People arrive over the first pause, not all at once; no pause runs past the end.
      await sleep(Math.random() * think());
      while (Date.now() < untilMs) {
        await act(person, pick(weighted));
        await sleep(Math.min(think(), Math.max(0, untilMs - Date.now())));
      }
    }),
  );
}
parentPort!.postMessage({ results, stray });
