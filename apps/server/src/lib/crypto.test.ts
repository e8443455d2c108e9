import { expect, it } from 'vitest';
import { decrypt, deriveKey, encrypt } from './crypto.ts';

it('seals provider tokens so only the same key opens them', () => {
  const key = deriveKey('secret', 'provider-tokens');
  const sealed = encrypt(key, 'id-token-value');
  expect(sealed).not.toContain('id-token-value');
  expect(decrypt(key, sealed)).toBe('id-token-value');
  expect(() => decrypt(deriveKey('other', 'provider-tokens'), sealed)).toThrow();
});
