import { open } from 'node:fs/promises';

/** Makes a file's bytes, or a folder's names, last on disk (a file is whole, or a rename done, only once this returns). */
export async function fsyncPath(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
