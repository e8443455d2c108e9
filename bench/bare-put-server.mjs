// The bare crash-safe PUT of the upload-rss baseline, in a process of its own: stream to a
// temporary file while hashing SHA-256, fsync, rename. Prints its port.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { barePut } from './bare-put.mjs';

const server = createServer(barePut(mkdtempSync(path.join(os.tmpdir(), 'cabinet-bare-'))));
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
