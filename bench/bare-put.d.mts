import type { RequestListener } from 'node:http';

/** A request listener storing each request's body as `dir/object` (temporary file, SHA-256, fsync, rename); answers the hex digest. */
export function barePut(dir: string): RequestListener;
