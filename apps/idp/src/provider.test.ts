import { describe, expect, it } from 'vitest';
import { prompts } from './provider.ts';

describe('the sign-in prompt where two steps are required', () => {
  const check = (requireTwoStep: boolean, session: { accountId?: string; amr?: string[] } | undefined) =>
    prompts(requireTwoStep)
      .get('login')!
      .checks.get('two_step_required')
      ?.check({ oidc: { session } } as never);

  it('asks a provider session that had no second step to sign in again', () => {
    expect(check(true, { accountId: 'a', amr: ['pwd'] })).toBe(true);
    expect(check(true, { accountId: 'a' })).toBe(true);
    expect(check(true, { accountId: 'a', amr: ['pwd', 'otp'] })).toBe(false);
    // No session: the usual reason to ask (no_session) does.
    expect(check(true, {})).toBe(false);
  });

  it('is not there unless the installation requires two steps', () => {
    expect(check(false, { accountId: 'a', amr: ['pwd'] })).toBeUndefined();
  });
});
