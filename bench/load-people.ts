// The people of the load bench, in a worker thread of their own (the server runs as its own process): each
// does what a member of a team does in Cabinet, one thing after another with a pause between, until the time
// is up, and every action's time and outcome is posted back. Run through ts-worker.mjs.
import { createHash, randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { addParagraph, editor, until } from './collab.ts';
import { ACTIONS, type Action, type ActionResult, type LoadPeople, type LoadPerson } from './load-world.ts';

const LARGE = 16 * 1024 * 1024;
const PARAGRAPHS_TYPED = 5;
const TYPING_GAP_MS = 400;

const { world, people, untilMs, thinkMs, eachActionTimes } = (workerData as { data: LoadPeople }).data;
const results: ActionResult[] = [];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const api = (path: string) => `${world.baseUrl}/api/v1${path}`;

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

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const sentence = () => Array.from({ length: 6 + Math.floor(Math.random() * 8) }, () => pick(world.words)).join(' ');

/** What each person has uploaded, to download again. */
const uploaded = new Map<LoadPerson, string[]>();

async function uploadSmall(person: LoadPerson): Promise<void> {
  const files = Array.from({ length: 1 + Math.floor(Math.random() * 4) }, () => randomBytes(8 * 1024 + Math.floor(Math.random() * 248 * 1024)));
  const started = await ok(person, 'POST', `/workspaces/${world.workspaceId}/uploads/batch`, {
    uploads: files.map((f) => ({ parentId: person.homeId, name: `${pick(world.words)} ${pick(world.words)}.bin`, size: f.length, onConflict: 'keep_both' })),
  });
  const uploads = (started.results as { upload?: { id: string; parts: { url: string }[] }; error?: { code: string } }[]).map((r) => {
    if (!r.upload) throw new Error(`a small upload was refused: ${r.error?.code}`);
    return r.upload;
  });
  await Promise.all(
    uploads.map(async (u, i) => {
      const res = await fetch(u.parts[0]!.url, { method: 'PUT', body: files[i] });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`PUT of a part answered ${res.status}`);
    }),
  );
  const done = await ok(person, 'POST', '/uploads/complete', { uploads: uploads.map((u, i) => ({ id: u.id, sha256: sha256(files[i]!) })) });
  for (const r of done.results as { item?: { id: string }; error?: { code: string } }[]) {
    if (!r.item) throw new Error(`a small upload did not complete: ${r.error?.code}`);
    uploaded.set(person, [...(uploaded.get(person) ?? []).slice(-20), r.item.id]);
  }
}

/** A large file as the browser sends it: parts four at a time, signed as they are needed, then completed. */
async function uploadLarge(person: LoadPerson): Promise<void> {
  const file = randomBytes(LARGE);
  const upload = await ok(person, 'POST', `/workspaces/${world.workspaceId}/uploads`, {
    parentId: person.homeId,
    name: `${pick(world.words)} recording.bin`,
    size: file.length,
    onConflict: 'keep_both',
  });
  const signed = new Map<number, string>((upload.parts as { partNumber: number; url: string }[]).map((p) => [p.partNumber, p.url]));
  const queue = Array.from({ length: upload.partCount as number }, (_, i) => i + 1);
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        if (!signed.has(n)) {
          const more = await ok(person, 'POST', `/uploads/${upload.id}/parts`, { partNumbers: [n, ...queue.slice(0, 7)] });
          for (const p of more.parts as { partNumber: number; url: string }[]) signed.set(p.partNumber, p.url);
        }
        const res = await fetch(signed.get(n)!, { method: 'PUT', body: file.subarray((n - 1) * upload.partSize, n * upload.partSize) });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`PUT of part ${n} answered ${res.status}`);
      }
    }),
  );
  const done = await ok(person, 'POST', `/uploads/${upload.id}/complete`, { sha256: sha256(file) });
  uploaded.set(person, [...(uploaded.get(person) ?? []).slice(-20), done.item.id]);
}

/**
 * Opens a document as the editor does (timed until it is in sync), types paragraphs into it (each timed until the
 * server has taken it), and closes it. A failure while typing is the typing's, not the opening's.
 */
async function openDocument(person: LoadPerson, startedAt: number, t0: number): Promise<void> {
  const e = editor(world.baseUrl, pick(world.documentIds), person.token);
  try {
    await until(e.synced, 'the document to open', 30_000);
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

/** Until the server has acknowledged every change the editor sent. */
function taken(provider: ReturnType<typeof editor>['provider']): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (provider.unsyncedChanges > 0) return;
      clearTimeout(timer);
      provider.off('unsyncedChanges', check);
      resolve();
    };
    const timer = setTimeout(() => {
      provider.off('unsyncedChanges', check);
      reject(new Error('a typed change was not taken within 30 s'));
    }, 30_000);
    provider.on('unsyncedChanges', check);
    check();
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const run: Record<Exclude<Action, 'type'>, (person: LoadPerson, startedAt: number, t0: number) => Promise<void>> = {
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
    const own = uploaded.get(person) ?? [];
    const id = own.length && Math.random() < 0.5 ? pick(own) : pick(world.fileIds);
    await bytes(person, api(`/items/${id}/content?download=1`));
  },
  'upload small files': uploadSmall,
  'upload a large file': uploadLarge,
};

async function act(person: LoadPerson, action: Exclude<Action, 'type'>): Promise<void> {
  const startedAt = Date.now();
  const t0 = performance.now();
  try {
    await run[action](person, startedAt, t0);
    // Opening a document posts its own time, before the typing.
    if (action !== 'open a document') results.push({ action, startedAt, ms: performance.now() - t0 });
  } catch (error) {
    results.push({ action, startedAt, ms: performance.now() - t0, error: messageOf(error) });
  }
}

const weighted = (Object.entries(ACTIONS) as [Exclude<Action, 'type'>, number][]).flatMap(([a, w]) => Array<Exclude<Action, 'type'>>(w).fill(a));
const think = () => thinkMs[0] + Math.random() * (thinkMs[1] - thinkMs[0]);

if (eachActionTimes) {
  for (const action of new Set(weighted)) for (let n = 0; n < eachActionTimes; n++) await act(people[0]!, action);
} else {
  await Promise.all(
    people.map(async (person) => {
      // People arrive over the first pause, not all at once.
      await sleep(Math.random() * think());
      while (Date.now() < untilMs) {
        await act(person, pick(weighted));
        await sleep(think());
      }
    }),
  );
}
parentPort!.postMessage(results);
