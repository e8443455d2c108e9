// The bare crash-safe PUT of the upload-rss baseline, in a process of its own: stream to a
// temporary file while hashing SHA-256, fsync, rename. Prints its port.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bare-'));
const server = createServer((req, res) => {
  const tmp = path.join(dir, `.tmp-${Math.random()}`);
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
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
