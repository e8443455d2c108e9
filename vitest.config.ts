import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What runs where (README, "Tests"):
 * - `unit` (*.test.ts): pure code, once.
 * - `integration:<database>` (*.int.test.ts): the real app over HTTP. Every file on PGlite, the database a new
 *   installation runs; with DATABASE_URL, the files in BOTH_DATABASES again on PostgreSQL.
 * - `system:<database>` (*.system.test.ts): crashes and restarts, CLI subprocesses, hostile files, fuzzing, outages,
 *   socket time limits and instances in step through Redis. They mostly wait, so `npm test` runs them beside lint (ADR 0077)
 *   (`npm run test:system`), two files at a time; on PGlite, and again on PostgreSQL where they are in BOTH_DATABASES.
 * - `build` (apps/web/test): reads the browser app's build; npm run test:e2e runs it after building.
 * File names say which database a file needs: *.pg.*.test.ts PostgreSQL only (an outage cannot be staged on an embedded
 * database), *.pglite.*.test.ts the embedded database only, *.redis.*.test.ts a Redis server (TEST_REDIS_URL).
 * scripts/test-projects.test.ts fails when a test file is in no project.
 */
/** Test files (without their `.int.test.ts` or `.system.test.ts`) that run on PostgreSQL as well as on PGlite. */
export const BOTH_DATABASES = [
  // Where PGlite (PostgreSQL 18, one connection) and PostgreSQL 15 (a pool, other sessions) can answer differently:
  // search's text configurations, GIN and trigram indexes and its queue of tasks taken with SKIP LOCKED;
  'apps/server/src/modules/search/**/*',
  // moves and copies under concurrent writers and row locks, and the roles a folder's listing gives its children;
  'apps/server/src/modules/items/moves*',
  'apps/server/src/modules/items/items',
  // where a deep page's index scan starts, as each planner folds its conditions;
  'apps/server/src/modules/items/listing-statements',
  // the policy's queries, for every route, role and relation (the items' matrices, items/matrix/*, send the same
  // statements for each role and relation: on PGlite only, they cost PostgreSQL's copy 60 s of the machine's time);
  'apps/server/src/modules/access.matrix',
  // uploads' quota reservations and completions racing each other;
  'apps/server/src/modules/files/uploads',
  'apps/server/src/modules/files/files.repo',
  // the statements of small uploads whose calls, arriving at once, run as one batch (ADR 0048);
  'apps/server/src/modules/files/upload-statements',
  // restores racing uploads, and re-uploads holding the blob they reuse (ADR 0041, 0042);
  'apps/server/src/modules/files/versions',
  // the jobs table's leases and claims; creation calls' keys claimed by requests sent at once (ADR 0043);
  'apps/server/src/infra/jobs/*',
  'apps/server/src/infra/http/idempotency',
  // the job queue's count by state and the pool's connections, read when /metrics is scraped;
  'apps/server/src/infra/metrics/*',
  // LISTEN/NOTIFY, which the live stream and notifications wake on;
  'apps/server/src/modules/live/*',
  'apps/server/src/modules/events/*',
  // backups: PostgreSQL's pg_dump on an exported snapshot, PGlite's in the process (ADR 0057);
  'apps/server/src/modules/backups/*',
  // instance administration: the last administrator kept under row locks, a deactivation's notice ending streams and sockets;
  'apps/server/src/modules/admin/*',
  // WebDAV's walks of a path and of locks up the tree, its locks' expiry by the database's clock (ADR 0067);
  'apps/server/src/modules/dav/dav',
  'apps/server/src/modules/dav/dav-access',
  // the live lock each item carries, read in the listing's statement and the item's access (ADR 0053's kept plans);
  'apps/server/src/modules/dav/lock-in-browser',
  // statements kept per connection, by PostgreSQL's pool and by PGlite's driver, and WebDAV's that are (ADR 0053, 0071);
  'apps/server/src/db/pglite-dialect',
  'apps/server/src/modules/dav/dav-planned-once',
  // a provider's logout tokens, each taken once (a conflict on its jti) with the sessions it ends (ADR 0068);
  'apps/server/src/modules/auth/backchannel-logout',
  // passkeys: their counters (bigint) moved forward by a conditional update, each challenge taken once (ADR 0070);
  'apps/server/src/modules/security/passkeys',
  // the cabinet command against a database server of its own.
  'apps/server/src/cli/cli-commands',
];

/**
 * Test files (without their `.system.test.ts`) that run once: on PostgreSQL when there is one, else on PGlite. Third-party
 * clients' long runs through the whole app, which prove the protocol rather than the database (each database's
 * statements are proven by the files in BOTH_DATABASES): on PostgreSQL, whose statements cost less of the machine the
 * browser tests share, a thousand files' round trip takes half the time.
 */
export const ONE_DATABASE = ['apps/server/src/modules/dav/dav-rclone'];

/**
 * System files in the order of their time in a run (the longest first, whichever database's copy is longer; CI on
 * 2bf5913), started first whatever their size: Vitest starts files it has no times for (a fresh checkout, as in CI)
 * largest first, and a long file started late runs alone at the stage's end (collab-load, 32 s, ran last so).
 */
export const LONGEST_FIRST = [
  'modules/dav/dav-rclone',
  'several-instances',
  'cli/data-folder',
  'modules/documents/hostile-imports',
  'cli/cli-commands',
  'collab/collab-load',
  'collab/crash',
  'modules/api-fuzz',
  'collab/socket-limits',
  'modules/files/crash-recovery',
  'modules/backups/restore',
  'cli/cli',
  'infra/workers/pool',
  'collab/collab.redis',
  'modules/dav/dav-litmus',
];

/** Vitest's order, but for the files LONGEST_FIRST names, which come first in its order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.includes(`/src/${name}.`));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

type TestDatabase = 'pglite' | 'postgres';

/** The test projects for the services at hand: PostgreSQL (DATABASE_URL) and Redis (TEST_REDIS_URL) when they answer. */
export function testProjects(have: { postgres: boolean; redis: boolean }) {
  const databases: TestDatabase[] = ['pglite', ...(have.postgres ? (['postgres'] as const) : [])];
  const once = ONE_DATABASE.map((p) => `${p}.system.test.ts`);
  const onDatabase = (db: TestDatabase, kind: 'int' | 'system') => ({
    include:
      db === 'pglite' ? [`apps/**/src/**/*.${kind}.test.ts`] : [...BOTH_DATABASES, ...ONE_DATABASE, 'apps/**/src/**/*.pg'].map((p) => `${p}.${kind}.test.ts`),
    exclude: [
      '**/node_modules/**',
      db === 'postgres' ? '**/*.pglite.*' : '**/*.pg.*',
      ...(have.redis ? [] : ['**/*.redis.*']),
      ...(db === 'pglite' && have.postgres ? once : []),
    ],
    env: { TEST_DATABASE: db },
  });
  // A project takes the root's workers and global setup, but not its time limits or setup files: each says them.
  const limits = { testTimeout: 60_000, hookTimeout: 120_000, setupFiles: ['apps/server/src/testing/matchers.ts'] };
  return [
    {
      test: {
        name: 'unit',
        // The files share a worker's imports (the contracts' schemas, once): each file in a fresh module graph cost the
        // project 58 s against 36. Each file undoes what it changes of the globals and timers.
        isolate: false,
        ...limits,
        include: ['apps/**/src/**/*.test.ts', 'apps/web/build/*.test.ts', 'packages/**/src/**/*.test.ts', 'scripts/*.test.ts'],
        exclude: ['**/*.int.test.ts', '**/*.system.test.ts', '**/node_modules/**'],
      },
    },
    { test: { name: 'build', include: ['apps/web/test/*.test.ts'] } },
    ...databases.map((db) => ({ test: { name: `integration:${db}`, isolate: false, ...limits, ...onDatabase(db, 'int') } })),
    ...databases.map((db) => ({
      test: { name: `system:${db}`, isolate: false, maxWorkers: 2, ...limits, testTimeout: 180_000, ...onDatabase(db, 'system') },
    })),
  ];
}

export default defineConfig({
  test: {
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    // Two cores here: integration files spend much of their time waiting on a database or a socket, so three at once
    // keep both cores busy (Vitest's default, one fewer than the cores, runs one file at a time).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    projects: testProjects({ postgres: !!process.env.DATABASE_URL, redis: !!process.env.TEST_REDIS_URL }),
  },
});
