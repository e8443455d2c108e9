/** Where background work (readers of the record, jobs, indexing) reports what failed: Fastify's logger, or a test's. */
export interface ErrorLog {
  error(obj: unknown, msg: string): void;
}
