import { describe, expect, it } from 'vitest';
import { newRecoveryCode, readSecondFactor, totpCode, totpStep } from './two-step.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const T = 1_800_000_000_000;

describe('reading a second step', () => {
  it('takes six digits as the app’s code and ten letters or digits as a recovery code, whatever the spacing and case', () => {
    expect(readSecondFactor(' 123 456 ')).toEqual({ kind: 'totp', code: '123456' });
    expect(readSecondFactor('ABCDE-23456')).toEqual({ kind: 'recovery', code: 'abcde23456' });
    expect(readSecondFactor('abcde 23456')).toEqual({ kind: 'recovery', code: 'abcde23456' });
    for (const other of ['', '12345', '1234567', 'abc', 'abcde-2345!']) expect(readSecondFactor(other)).toEqual({ kind: 'none' });
  });

  it('makes recovery codes of two groups of five that read back the same', () => {
    for (let i = 0; i < 50; i++) {
      const code = newRecoveryCode();
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
      expect(readSecondFactor(code).kind).toBe('recovery');
    }
  });
});

describe('the time step of a code', () => {
  it('is the step the code was made for, within one step either side', () => {
    const step = T / 1000 / 30;
    expect(totpStep(SECRET, totpCode(SECRET, T), T)).toBe(step);
    expect(totpStep(SECRET, totpCode(SECRET, T - 30_000), T)).toBe(step - 1);
    expect(totpStep(SECRET, totpCode(SECRET, T + 30_000), T)).toBe(step + 1);
    expect(totpStep(SECRET, totpCode(SECRET, T + 90_000), T)).toBeUndefined();
  });
});
