import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** New empty folders for a test file (`prefix` names them in the temporary folder), all removed when the file ends. */
export function tempFolders(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `${prefix}-`));
    made.push(dir);
    return dir;
  };
}
