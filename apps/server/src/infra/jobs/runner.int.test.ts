import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { enqueue } from './queue.ts';
import { JobPostponed, JobRunner } from './runner.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const jobs = () => t.database.db.selectFrom('jobs').selectAll().execute();
/** Every queued job due now, as if its time had come. */
const everyJobDue = () =>
  t.database.db
    .updateTable('jobs')
    .set({ run_at: new Date(Date.now() - 1) })
    .execute();

describe('the job queue', () => {
  it('runs a queued job once and forgets it', async () => {
    const seen: unknown[] = [];
    await enqueue(t.database.db, 'say', { word: 'hello' });
    const runner = new JobRunner(t.database.db, { say: { run: async (p) => void seen.push(p.word) } });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(seen).toEqual(['hello']);
    expect(await jobs()).toEqual([]);
  });

  it('retries a failing job later, with backoff, keeping the error; gives up after its attempts', async () => {
    let calls = 0;
    await enqueue(t.database.db, 'flaky', {}, { maxAttempts: 2 });
    const flaky = async () => {
      calls++;
      throw new Error('storage away');
    };
    const runner = new JobRunner(t.database.db, { flaky: { run: flaky } });
    await runner.runDue();
    const [failed] = await jobs();
    expect(failed).toMatchObject({ kind: 'flaky', attempts: 1, last_error: 'storage away', locked_until: null });
    expect(failed!.run_at.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing runs.
    expect(await runner.runDue()).toBe(0);
    await everyJobDue();
    await runner.runDue();
    expect(calls).toBe(2);
    // Out of attempts: it stays, for an operator, and never runs again.
    await everyJobDue();
    expect(await runner.runDue()).toBe(0);
    expect(await jobs()).toHaveLength(1);
    await t.database.db.deleteFrom('jobs').execute();
  });

  it('runs a postponed job again later without counting it as an attempt, however often it is put off', async () => {
    let calls = 0;
    await enqueue(t.database.db, 'waits', {}, { maxAttempts: 1 });
    const runner = new JobRunner(t.database.db, {
      waits: {
        run: async () => {
          if (++calls < 4) throw new JobPostponed(60_000, 'a backup is running');
        },
      },
    });
    for (let i = 0; i < 3; i++) {
      expect(await runner.runDue()).toBe(1);
      const [put] = await jobs();
      expect(put).toMatchObject({ attempts: 0, last_error: 'a backup is running', locked_until: null });
      expect(put!.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
      expect(await runner.runDue()).toBe(0);
      await everyJobDue();
    }
    // Its one attempt is still there for the run that happens.
    expect(await runner.runDue()).toBe(1);
    expect(calls).toBe(4);
    expect(await jobs()).toEqual([]);
  });

  it('never runs a job twice at once, and takes over a job whose runner died', async () => {
    await enqueue(t.database.db, 'slow');
    let running = 0;
    let most = 0;
    const slow = {
      slow: {
        run: async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 100));
          running--;
        },
      },
    };
    const one = new JobRunner(t.database.db, slow);
    const two = new JobRunner(t.database.db, slow);
    const ran = await Promise.all([one.runDue(), two.runDue()]);
    expect(ran.sort()).toEqual([0, 1]);
    expect(most).toBe(1);

    // A runner that took a job and died leaves a lease; once it lapses, another runner takes the job.
    await enqueue(t.database.db, 'slow');
    await t.database.db
      .updateTable('jobs')
      .set({ locked_until: new Date(Date.now() + 60_000), attempts: 1 })
      .execute();
    expect(await one.runDue()).toBe(0);
    await t.database.db
      .updateTable('jobs')
      .set({ locked_until: new Date(Date.now() - 1) })
      .execute();
    expect(await one.runDue()).toBe(1);
    expect(await jobs()).toEqual([]);
  });

  it('keeps one copy of a recurring job and queues it again after each run', async () => {
    let runs = 0;
    const defs = { tick: { everyMs: 60_000, run: async () => void runs++ } };
    const runner = new JobRunner(t.database.db, defs, { pollMs: 10 });
    await runner.start();
    await new JobRunner(t.database.db, defs).start();
    await new Promise((r) => setTimeout(r, 200));
    await runner.stop();
    const rows = await jobs();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'tick', singleton: 'tick', attempts: 0 });
    expect(rows[0]!.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(runs).toBe(1);
  });
});
