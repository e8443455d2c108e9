import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const keys = fileURLToPath(new URL('./keys.ts', import.meta.url));

/**
 * Keys made and exported over and over, in a process whose garbage collector runs all the time (a young generation of
 * 1 MiB): exported straight from the generation's key objects, such a loop hangs Node 20 for good within a few
 * thousand keys (the collector frees a generation's job in the middle of an export, and the job's end waits on the
 * export's lock). Made as keys.ts makes them, every key is exported.
 */
describe('keys made in this process', () => {
  it('are exported as JWKs without ever hanging the process, however often the collector runs', () => {
    const script = `
      const { newEcKeyPair, newRsaJwk } = await import(${JSON.stringify(keys)});
      let n = 0;
      for (; n < 8000; n++) {
        const { privateKey, publicKey } = newEcKeyPair();
        privateKey.export({ format: 'jwk' });
        publicKey.export({ format: 'jwk' });
      }
      const rsa = newRsaJwk();
      console.log(n, rsa.kty, typeof rsa.d);`;
    const run = spawnSync(process.execPath, ['--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.signal, 'the process hung and was killed').toBeNull();
    expect(run.stdout.trim(), run.stderr).toBe('8000 RSA string');
  }, 120_000);
});
