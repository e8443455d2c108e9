import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The documents service is the one writer of a document's stored state and revisions (ADR 0025):
 * no other module imports its repository, and no SQL outside that repository writes their tables.
 * A scan of the sources, until a dependency tool checks module boundaries.
 */

const SERVER_SOURCE = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENTS_MODULE = 'modules/documents/';
const REPOSITORY = 'modules/documents/documents.repo.ts';
const THIS_FILE = 'modules/documents/one-writer.test.ts';

const importsRepository = /\bfrom\s+['"][^'"]*documents\.repo(\.ts)?['"]|\bimport\(\s*['"][^'"]*documents\.repo(\.ts)?['"]/;
const TABLES = '(document_contents|document_revisions)\\b';
const writesTables = new RegExp(
  `\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|TRUNCATE(\\s+TABLE)?|MERGE\\s+INTO|COPY)\\s+${TABLES}|\\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\\(\\s*['"\`]${TABLES}`,
  'i',
);

/** What breaks the rule, as "path: reason", for files given by their path under apps/server/src. */
function violations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (path === THIS_FILE) continue;
    if (!path.startsWith(DOCUMENTS_MODULE) && importsRepository.test(text)) found.push(`${path}: imports the documents repository`);
    if (path !== REPOSITORY && writesTables.test(text)) found.push(`${path}: writes a document's stored state outside the documents repository`);
  }
  return found;
}

async function sources(dir: string): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(ts|mts|mjs|js)$/.test(entry.name)) continue;
    const full = join(entry.parentPath, entry.name);
    files.push({ path: relative(dir, full).split(sep).join('/'), text: await readFile(full, 'utf8') });
  }
  return files;
}

describe('one writer of a document’s stored state', () => {
  it('holds in the server’s sources', async () => {
    const files = await sources(SERVER_SOURCE);
    expect(files.some((f) => f.path === REPOSITORY)).toBe(true);
    expect(violations(files)).toEqual([]);
  });

  it('catches a foreign import of the repository and a write of the tables elsewhere', () => {
    expect(
      violations([
        { path: 'collab/persistence.ts', text: "import { saveDocumentState } from '../modules/documents/documents.repo.ts';" },
        { path: 'modules/items/items.service.ts', text: "const repo = await import('../documents/documents.repo.ts');" },
        { path: 'modules/items/items.repo.ts', text: 'await sql`INSERT INTO document_contents (item_id) SELECT id FROM items`.execute(db);' },
        { path: 'modules/comments/comments.repo.ts', text: "await db\n  .updateTable(\n    'document_revisions').set({ label: null }).execute();" },
        { path: 'jobs.ts', text: 'await sql`delete from document_revisions where true`.execute(db);' },
        // Reading is anyone's; the documents module uses its own repository.
        { path: 'modules/search/search-indexer.repo.ts', text: "db.selectFrom('document_contents').select('text')" },
        { path: 'modules/documents/documents.service.ts', text: "import { saveDocumentState } from './documents.repo.ts';" },
        { path: REPOSITORY, text: 'await sql`UPDATE document_contents SET text = ${text}`.execute(db);' },
      ]),
    ).toEqual([
      'collab/persistence.ts: imports the documents repository',
      'modules/items/items.service.ts: imports the documents repository',
      "modules/items/items.repo.ts: writes a document's stored state outside the documents repository",
      "modules/comments/comments.repo.ts: writes a document's stored state outside the documents repository",
      "jobs.ts: writes a document's stored state outside the documents repository",
    ]);
  });
});
