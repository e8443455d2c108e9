import { workspacesApi } from '@cabinet/contracts';
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../../testing/temp-folders.ts';
import { useTestApp } from '../../testing/test-app.ts';

const run = promisify(execFile);
const hasRclone = spawnSync('rclone', ['--version']).error === undefined;
if (!hasRclone) console.warn('rclone is not installed (Debian package rclone): its round trip is skipped here; .ci/run installs it.');

/**
 * WebDAV proven by a client no one here wrote (ADR 0067): rclone's round trip of a tree. Once, on PostgreSQL when there
 * is one (vitest.config.ts, ONE_DATABASE): the statements it sends are each proven on both databases by dav.int.test.ts.
 */
describe('WebDAV through rclone', () => {
  const test = useTestApp({ UPLOAD_PART_SIZE: '8MiB' });
  const tempFolder = tempFolders('cabinet-rclone');
  const signIn = async () => {
    const person = await test.given.person('Dav');
    const slug = (await person.call(workspacesApi.get, { params: { ws: person.workspace.id } })).body.slug;
    return { password: await test.given.appPassword(person), root: `${test.app.url}/dav/${slug}/My%20files/` };
  };

  it.skipIf(!hasRclone)(
    'takes a tree of 1,000 files up and back with rclone: no difference, checksums and times kept',
    async () => {
      const { password, root } = await signIn();
      const here = await tempFolder();
      const tree = path.join(here, 'tree');
      const files: string[] = [];
      for (let i = 0; i < 998; i++) {
        const folder = i % 3 === 0 ? `Ünïcode ✓ ${i % 10}/名前 ${i % 7}` : `folder ${i % 20}/deeper ${i % 5}/deepest`;
        files.push(path.join(folder, i % 11 === 0 ? `Résumé ${i}.txt` : `file ${i}.bin`));
      }
      files.push('empty', 'big.bin');
      for (const [i, file] of files.entries()) {
        const full = path.join(tree, file);
        await mkdir(path.dirname(full), { recursive: true });
        await writeFile(full, file === 'empty' ? new Uint8Array() : file === 'big.bin' ? randomBytes(50 * 1024 * 1024) : randomBytes((i * 37) % 4096));
        // A time of its own in the past, whole seconds (WebDAV's getlastmodified has no finer ones).
        const at = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000);
        await utimes(full, at, at);
      }
      const env = {
        ...process.env,
        RCLONE_CONFIG: path.join(here, 'rclone.conf'),
        RCLONE_CONFIG_CAB_TYPE: 'webdav',
        RCLONE_CONFIG_CAB_URL: root,
        RCLONE_CONFIG_CAB_VENDOR: 'owncloud',
        RCLONE_CONFIG_CAB_USER: 'dav@example.com',
        RCLONE_CONFIG_CAB_PASS: (await run('rclone', ['obscure', password])).stdout.trim(),
      };
      const rclone = (...args: string[]) =>
        run('rclone', [...args, '--transfers', '8', '--retries', '1'], { env, timeout: 480_000, maxBuffer: 16 * 1024 * 1024 });
      const started = Date.now();
      await rclone('copy', tree, 'cab:tree');
      const up = Date.now() - started;
      const check = await rclone('check', tree, 'cab:tree');
      expect(check.stderr).toMatch(/0 differences found/);
      expect(check.stderr).toMatch(/1000 matching files/);
      // Compared by their SHA-1 too: the one rclone sent with each file (OC-Checksum), checked on the way in and shown back.
      expect(check.stderr).not.toMatch(/No common hash|hash unsupported/i);
      const back = path.join(here, 'back');
      await rclone('copy', 'cab:tree', back);
      for (const file of files) {
        const [a, b] = await Promise.all([readFile(path.join(tree, file)), readFile(path.join(back, file))]);
        expect(a.equals(b), file).toBe(true);
        const [sa, sb] = await Promise.all([stat(path.join(tree, file)), stat(path.join(back, file))]);
        expect(Math.floor(sb.mtimeMs / 1000), file).toBe(Math.floor(sa.mtimeMs / 1000));
      }
      expect((await readdir(back)).sort()).toEqual((await readdir(tree)).sort());
      // Again: nothing to send, as every size and time matches.
      const again = await rclone('copy', tree, 'cab:tree', '-v');
      expect(again.stderr).not.toMatch(/Copied \(new\)|Copied \(replaced/);
      console.info(`rclone: 1,000 files (${files.length}) up in ${up} ms, checked, back and compared in ${Date.now() - started} ms`);
      // A thousand uploads on the embedded database, beside the browser tests in CI: minutes.
    },
    600_000,
  );
});
