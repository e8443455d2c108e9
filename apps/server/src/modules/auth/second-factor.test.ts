import { describe, expect, it } from 'vitest';
import { reportsSecondFactor } from './second-factor.ts';

describe('a second factor reported by the provider', () => {
  it('is read from amr: a code, a key, a phone, or mfa itself; a password or nothing is not one', () => {
    for (const amr of [['pwd', 'otp'], ['hwk', 'user'], ['swk'], ['pwd', 'mfa'], ['MFA'], ['sms'], ['sc', 'pin']])
      expect(reportsSecondFactor({ amr }), amr.join()).toBe(true);
    for (const amr of [['pwd'], [], ['kba'], ['fpt'], ['pwd', 'rba']]) expect(reportsSecondFactor({ amr }), amr.join()).toBe(false);
    expect(reportsSecondFactor({})).toBe(false);
  });

  it('is read from an acr naming more than one factor', () => {
    for (const acr of ['http://schemas.openid.net/pape/policies/2007/06/multi-factor', 'urn:okta:loa:2fa:any', 'mfa', 'phrh'])
      expect(reportsSecondFactor({ acr }), acr).toBe(true);
    for (const acr of ['0', '1', 'urn:okta:loa:1fa:any', 'http://schemas.openid.net/pape/policies/2007/06/phishing-resistant', 'silver'])
      expect(reportsSecondFactor({ acr }), acr).toBe(false);
  });
});
