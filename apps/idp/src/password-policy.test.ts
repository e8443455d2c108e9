import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY, passwordChecker } from './password-policy.ts';

describe('the embedded provider password policy', () => {
  const check = passwordChecker(DEFAULT_PASSWORD_POLICY).check;

  it('accepts a long uncommon passphrase', () => {
    expect(check('plum-orbit-canvas-42')).toEqual([]);
  });

  it('names each rule a password breaks', () => {
    expect(check('short')).toEqual(['Password must be at least 12 characters']);
    expect(check('x'.repeat(129))).toContain('Password must be at most 128 characters');
    expect(check('Password1234')).toEqual(['Password is too common: choose one that is harder to guess']);
    expect(check('aaaaaaaaaaaaaaa')).toEqual(['Password is too common: choose one that is harder to guess']);
    expect(check('ada.lovelace@example.com', { email: 'ada.lovelace@example.com' })).toEqual(['Password must not be your email address or name']);
  });

  it('counts characters, not bytes', () => {
    expect(check('ééééééééééé1')).toEqual([]);
  });

  it('applies configured character classes', () => {
    const strict = passwordChecker({ minLength: 8, maxLength: 64, require: ['upper', 'digit', 'symbol'] });
    expect(strict.check('lowercaseonly')).toEqual([
      'Password must contain an uppercase letter',
      'Password must contain a digit',
      'Password must contain a symbol (not a letter or digit)',
    ]);
    expect(strict.check('Upper-case-9')).toEqual([]);
    expect(strict.describe()).toBe('Use 8 to 64 characters with an uppercase letter, a digit, a symbol; common passwords are refused.');
  });
});
