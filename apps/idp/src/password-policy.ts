import { readFileSync } from 'node:fs';
import { COMMON_PASSWORDS } from './common-passwords.ts';

export type CharacterClass = 'lower' | 'upper' | 'digit' | 'symbol';

export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  require: CharacterClass[];
  /** Extra refused passwords, one per line, added to the built-in list. */
  commonPasswordsFile?: string | undefined;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 12, maxLength: 128, require: [] };

const CLASS_TEST: Record<CharacterClass, { test: RegExp; rule: string }> = {
  lower: { test: /\p{Ll}/u, rule: 'Password must contain a lowercase letter' },
  upper: { test: /\p{Lu}/u, rule: 'Password must contain an uppercase letter' },
  digit: { test: /\p{Nd}/u, rule: 'Password must contain a digit' },
  symbol: { test: /[^\p{L}\p{Nd}]/u, rule: 'Password must contain a symbol (not a letter or digit)' },
};

/** Each class as the form's hint names it. */
const CLASS_NAME: Record<CharacterClass, string> = { lower: 'a lowercase letter', upper: 'an uppercase letter', digit: 'a digit', symbol: 'a symbol' };

export interface PasswordChecker {
  /** The rules the password breaks, each named in words a person understands; empty when it is acceptable. */
  check(password: string, context?: { email?: string; name?: string }): string[];
  /** The rules as a sentence for the form's hint. */
  describe(): string;
}

export function passwordChecker(policy: PasswordPolicy): PasswordChecker {
  const refused = new Set(COMMON_PASSWORDS);
  if (policy.commonPasswordsFile) {
    for (const line of readFileSync(policy.commonPasswordsFile, 'utf8').split(/\r?\n/)) {
      if (line.trim()) refused.add(line.trim().toLowerCase());
    }
  }
  return {
    check(password, context = {}) {
      const problems: string[] = [];
      const length = [...password].length;
      if (length < policy.minLength) problems.push(`Password must be at least ${policy.minLength} characters`);
      if (length > policy.maxLength) problems.push(`Password must be at most ${policy.maxLength} characters`);
      for (const c of policy.require) if (!CLASS_TEST[c].test.test(password)) problems.push(CLASS_TEST[c].rule);
      const lower = password.toLowerCase();
      const personal = [context.email?.toLowerCase(), context.email?.split('@')[0]?.toLowerCase(), context.name?.toLowerCase()];
      if (refused.has(lower) || /^(.)\1+$/.test(password)) {
        problems.push('Password is too common: choose one that is harder to guess');
      } else if (personal.some((p) => p && p.length >= 4 && lower === p)) {
        problems.push('Password must not be your email address or name');
      }
      return problems;
    },
    describe() {
      const parts = [`${policy.minLength} to ${policy.maxLength} characters`];
      if (policy.require.length) parts.push(`with ${policy.require.map((c) => CLASS_NAME[c]).join(', ')}`);
      return `Use ${parts.join(' ')}; common passwords are refused.`;
    },
  };
}
