#!/usr/bin/env node
// The `cabinet` command. It runs the server's build (dist/: plain JavaScript, made by build.mjs), made first whenever
// a source is newer than it (ADR 0073). Errors' stacks name the sources' lines.
import { buildServer, isStale } from '../build.mjs';

process.setSourceMapsEnabled(true);
if (isStale()) await buildServer();
await import('../dist/cabinet.mjs');
