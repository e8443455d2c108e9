// The bare crash-safe PUT that the upload benchmarks measure Cabinet against, from Node alone:
// plain JavaScript, so that bare-put-server.mjs runs it in a process of its own without tsx.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';

/**
 * A request listener storing each request's body as `dir/object`: streamed to a temporary file
 * while hashing SHA-256, then fsync and rename; answers the hex digest.
 * @param {string} dir
 * @returns {import('node:http').RequestListener}
 */
export function barePut(dir) {
  return (req, res) => {
    const tmp = path.join(dir, `.tmp-${Math.random().toString(36).slice(2)}`);
    const out = createWriteStream(tmp);
    const hash = createHash('sha256');
    req.on('data', (chunk) => hash.update(chunk));
    req.pipe(out);
    void finished(out).then(async () => {
      const handle = await open(tmp, 'r');
      await handle.sync();
      await handle.close();
      await rename(tmp, path.join(dir, 'object'));
      res.end(hash.digest('hex'));
    });
  };
}
