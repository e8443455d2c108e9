import { workspacesApi } from '@cabinet/contracts';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/test-app.ts';

const run = promisify(execFile);
const installed = (command: string) => spawnSync(command, ['--version']).error === undefined;
const hasLitmus = installed('litmus');
if (!hasLitmus) console.warn('litmus is not installed (Debian package litmus): its WebDAV tests are skipped here; .ci/run installs it.');

/** WebDAV proven by a client no one here wrote (ADR 0067): litmus's suites (rclone's round trip: dav-rclone.system.test.ts). */
describe('WebDAV through litmus', () => {
  const test = useTestApp({ UPLOAD_PART_SIZE: '8MiB' });
  const signIn = async () => {
    const person = await test.given.person('Dav');
    const slug = (await person.call(workspacesApi.get, { params: { ws: person.workspace.id } })).body.slug;
    return { password: await test.given.appPassword(person), root: `${test.app.url}/dav/${slug}/My%20files/` };
  };

  it.skipIf(!hasLitmus)('passes every test of litmus: basic, copymove, props, locks and http', async () => {
    const { password, root } = await signIn();
    const out = await run('litmus', ['-k', root, 'dav@example.com', password], { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }).then(
      (r) => r.stdout,
      (e: { stdout?: string }) => e.stdout ?? '',
    );
    const summaries = [...out.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g)].map((m) => ({
      group: m[1],
      run: Number(m[2]),
      passed: Number(m[3]),
      failed: Number(m[4]),
    }));
    expect(
      summaries.map((s) => s.group),
      out,
    ).toEqual(['basic', 'copymove', 'props', 'locks', 'http']);
    for (const s of summaries) expect(s, out).toMatchObject({ failed: 0, passed: s.run });
    // Nothing skipped (locks are tested only where the server says class 2) and nothing warned of.
    expect(out).not.toMatch(/SKIPPED|WARNING/);
    console.info(summaries.map((s) => `litmus ${s.group}: ${s.passed}/${s.run}`).join('; '));
  });
});
