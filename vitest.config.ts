import { defineConfig } from 'vitest/config';

const databases = ['pglite', ...(process.env.DATABASE_URL ? ['postgres'] : [])];
// *.redis.int.test.ts need a Redis server (TEST_REDIS_URL, as .ci/run sets it when one answers).
const redis = !!process.env.TEST_REDIS_URL;

/** Unit tests once; integration tests once per database (PGlite always, PostgreSQL when DATABASE_URL is set). */
export default defineConfig({
  test: {
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/**/src/**/*.test.ts', 'packages/**/src/**/*.test.ts', 'scripts/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      // Reads the browser app's build: npm run test:e2e runs it after building (test:unit leaves it out).
      { test: { name: 'build', include: ['apps/web/test/*.test.ts'] } },
      ...databases.map((db) => ({
        test: {
          name: `integration:${db}`,
          include: ['apps/**/src/**/*.int.test.ts'],
          // *.pg.int.test.ts need a PostgreSQL server (an outage cannot be staged on an embedded database);
          // *.pglite.int.test.ts are about the embedded database itself.
          exclude: [
            '**/node_modules/**',
            ...(db === 'postgres' ? ['**/*.pglite.int.test.ts'] : ['**/*.pg.int.test.ts']),
            ...(redis ? [] : ['**/*.redis.int.test.ts']),
          ],
          env: { TEST_DATABASE: db },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      })),
    ],
  },
});
