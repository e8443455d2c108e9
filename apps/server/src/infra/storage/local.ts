import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StorageDriver } from './driver.ts';

export function localStorage(root: string): StorageDriver {
  return {
    kind: 'local',
    async check() {
      await mkdir(root, { recursive: true });
      const probe = path.join(root, `.probe-${process.pid}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },
  };
}
