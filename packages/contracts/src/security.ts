import { z } from 'zod';

/** The caller's two-step sign-in, as Account → Security shows it. */
export const ZTwoStep = z.object({
  /** Whether Cabinet manages it: only for accounts of the embedded provider; a hosted provider has its own. */
  available: z.boolean(),
  /** An authenticator app is set up: signing in asks for its code after the password. */
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The installation requires two steps of everyone (REQUIRE_TWO_STEP): without an app, the next sign-in sets one up. */
  required: z.boolean(),
});
export type TTwoStep = z.infer<typeof ZTwoStep>;

/** An authenticator app being set up: scan the QR code, or type the secret. Shown until confirmed, never after. */
export const ZTotpSetUp = z.object({
  secret: z.string(),
  /** The `otpauth://` address the QR code holds. */
  uri: z.string(),
  /** The QR code as SVG markup. */
  qrSvg: z.string(),
});
export type TTotpSetUp = z.infer<typeof ZTotpSetUp>;

export const ZConfirmTotpRequest = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{3}\s?\d{3}$/, 'Enter the 6-digit code your app shows'),
});
export type TConfirmTotpRequest = z.infer<typeof ZConfirmTotpRequest>;

/** A new password chosen while signed in (embedded provider accounts); the provider's policy checks it. */
export const ZChangePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(1024),
  newPassword: z.string().min(1, 'Enter a new password').max(1024),
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** Recovery codes, shown once: each signs in once in place of the app's code. */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;
