/**
 * Authentication methods (RFC 8176) that are a second factor beside a password: one-time codes, keys held in hardware
 * or software (passkeys, smart cards), a text or call to a phone, or the provider saying `mfa` itself.
 */
const SECOND_FACTORS = new Set(['mfa', 'otp', 'hwk', 'swk', 'sms', 'tel', 'sc', 'pop']);
/** Authentication context classes naming more than one factor: OpenID's PAPE multi-factor policies, Okta's `2fa`, `mfa` in a name. */
const MULTI_FACTOR_ACR = /multi-factor|\bmfa\b|2fa|phrh?$/i;

/** Whether the provider reported a second factor for this sign-in, by the ID token's `amr` or its `acr`. */
export function reportsSecondFactor(identity: { amr?: string[] | undefined; acr?: string | undefined }): boolean {
  if (identity.amr?.some((method) => SECOND_FACTORS.has(method.toLowerCase()))) return true;
  return !!identity.acr && MULTI_FACTOR_ACR.test(identity.acr);
}
