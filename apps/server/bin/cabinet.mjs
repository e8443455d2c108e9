#!/usr/bin/env node
// The `cabinet` command. It runs the server's build (dist/: plain JavaScript, made by build.mjs), made first whenever
// a source changed since (ADR 0073). Errors' stacks name the sources' lines.
import { ensureBuilt } from '../build.mjs';

process.setSourceMapsEnabled(true);
await ensureBuilt();
await import('../dist/cabinet.mjs');
