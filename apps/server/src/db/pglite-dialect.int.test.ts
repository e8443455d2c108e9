import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

describe('the database driver', () => {
  it('lets timers and sockets have their turn while statements run one after another', async () => {
    // PGlite answers through promises alone: a chain of statements used to hold the event loop until it ended (ADR 0049).
    let fired = false;
    setTimeout(() => (fired = true), 0);
    let statements = 0;
    while (!fired && statements < 200) {
      await sql`SELECT 1`.execute(test.database.db);
      statements++;
    }
    expect(fired).toBe(true);
    expect(statements).toBeLessThan(200);
  });
});
