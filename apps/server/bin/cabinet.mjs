#!/usr/bin/env node
// The `cabinet` command. Cabinet runs its TypeScript directly through tsx: no separate build of the server.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
