// The people of the load bench, in a worker thread of their own (the server runs as its own process): each
// does what a member of a team does in Cabinet, one thing after another with a pause between, until the time
// is up, and every action's time and outcome is posted back. Run through ts-worker.mjs.
import { createHash, randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { addParagraph, editor } from './collab.ts';
import { ACTIONS, type Action, type ActionResult, type LoadPeople, type LoadPerson } from './load-world.ts';

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

/** A call that must succeed: any other answer is the action's failure, named by its status and error code. */
async function ok(person: LoadPerson, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(api(path), {
    method,
    headers: { authorization: `Bearer ${person.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')} answered ${res.status} ${/"code":"(\w+)"/.exec(text)?.[1] ?? ''}`);
  return text ? JSON.parse(text) : undefined;
}

/** Bytes from a URL (a signed one, or Cabinet's with the token), read to the end. */
async function bytes(person: LoadPerson, url: string, headers: Record<string, string> = {}): Promise<number> {
  const own = url.startsWith(world.baseUrl);
  const res = await fetch(url, { headers: { ...headers, ...(own ? { authorization: `Bearer ${person.token}` } : {}) } });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${new URL(url).pathname.replace(/[0-9a-f-]{36}/g, ':id')} answered ${res.status}`);
  return body.byteLength;
}

async function put(url: string, body: Uint8Array): Promise<void> {
  const res = await fetch(url, { method: 'PUT', body });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`PUT of a part answered ${res.status}`);
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

/** Uploads started and not finished are cancelled, as the browser does when one of a batch fails. */
async function cancel(person: LoadPerson, ids: string[]): Promise<void> {
  await Promise.all(ids.map((id) => ok(person, 'DELETE', `/uploads/${id}`).catch(() => {})));
}

async function uploadSmall(person: LoadPerson, { files }: Prepared): Promise<void> {
  const started = await ok(person, 'POST', `/workspaces/${world.workspaceId}/uploads/batch`, {
    uploads: files.map((f) => ({
      parentId: person.homeId,
      name: `${pick(world.words)} ${pick(world.words)}.bin`,
      size: f.bytes.length,
      onConflict: 'keep_both',
    })),
  });
  const answers = started.results as { upload?: { id: string; parts: { url: string }[] }; error?: { code: string } }[];
  const uploads = answers.flatMap((r) => (r.upload ? [r.upload] : []));
  try {
    const refused = answers.find((r) => !r.upload);
    if (refused) throw new Error(`a small upload was refused: ${refused.error?.code}`);
    await Promise.all(uploads.map((u, i) => put(u.parts[0]!.url, files[i]!.bytes)));
    const done = await ok(person, 'POST', '/uploads/complete', { uploads: uploads.map((u, i) => ({ id: u.id, sha256: files[i]!.sha256 })) });
    const failed = (done.results as { item?: unknown; error?: { code: string } }[]).find((r) => !r.item);
    if (failed) throw new Error(`a small upload did not complete: ${failed.error?.code}`);
  } catch (error) {
    await cancel(
      person,
      uploads.map((u) => u.id),
    );
    throw error;
  }
}

/** A large file as the browser sends it: parts four at a time, signed as they are needed, then completed. */
async function uploadLarge(person: LoadPerson, { files }: Prepared): Promise<void> {
  const file = files[0]!;
  const upload = await ok(person, 'POST', `/workspaces/${world.workspaceId}/uploads`, {
    parentId: person.homeId,
    name: `${pick(world.words)} recording.bin`,
    size: file.bytes.length,
    onConflict: 'keep_both',
  });
  try {
    const signed = new Map<number, string>((upload.parts as { partNumber: number; url: string }[]).map((p) => [p.partNumber, p.url]));
    const queue = Array.from({ length: upload.partCount as number }, (_, i) => i + 1);
    let failed = false;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        try {
          // A lane stops taking parts once another has failed: no load goes untimed after the action ended.
          for (let n = queue.shift(); n !== undefined && !failed; n = queue.shift()) {
            if (!signed.has(n)) {
              const more = await ok(person, 'POST', `/uploads/${upload.id}/parts`, { partNumbers: [n, ...queue.slice(0, 7)] });
              for (const p of more.parts as { partNumber: number; url: string }[]) signed.set(p.partNumber, p.url);
            }
            await put(signed.get(n)!, file.bytes.subarray((n - 1) * upload.partSize, n * upload.partSize));
          }
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    );
    await ok(person, 'POST', `/uploads/${upload.id}/complete`, { sha256: file.sha256 });
  } catch (error) {
    await cancel(person, [upload.id]);
    throw error;
  }
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
