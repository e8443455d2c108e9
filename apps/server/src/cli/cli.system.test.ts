import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/test-app.ts';
import { cabinet } from '../testing/cabinet-command.ts';

describe('starting with bad settings', () => {
  it('stops with a message naming the setting and the expected form', async () => {
    const res = await cabinet(['serve'], { PORT: 'eighty', DATA_DIR: os.tmpdir() });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('PORT: expected a whole number');
    const s3 = await cabinet(['serve'], { STORAGE_DRIVER: 's3', DATA_DIR: os.tmpdir() });
    expect(s3.code).toBe(1);
    expect(s3.stderr).toContain('S3_BUCKET: required when STORAGE_DRIVER=s3');
  });

  it('will not start the collaboration server alone without the database and Redis it shares', async () => {
    const res = await cabinet(['collab'], { DATA_DIR: os.tmpdir() });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('set DATABASE_URL and REDIS_URL');
  });

  it('stops naming DATABASE_URL when the database cannot be reached', async () => {
    const port = await freePort();
    const res = await cabinet(['serve'], {
      DATABASE_URL: `postgres://cabinet@127.0.0.1:${port}/cabinet`,
      DATA_DIR: os.tmpdir(),
      PORT: String(await freePort()),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Check the DATABASE_URL setting');
  });
});
