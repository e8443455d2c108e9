import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';

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

/** A passkey of the caller's: it signs in without a password, or is the second step after one. */
export const ZPasskey = z.object({
  id: ZId,
  name: z.string(),
  /** Copied to the person's other devices by their password manager or platform, rather than kept on one device. */
  synced: z.boolean(),
  createdAt: ZIsoTime,
  lastUsedAt: ZIsoTime.nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;
export const ZPasskeyList = z.object({ passkeys: z.array(ZPasskey) });

/** What the browser needs to make a passkey (WebAuthn's creation options in their JSON form), good for minutes. */
export const ZPasskeyOptions = z.object({ options: z.record(z.string(), z.unknown()) });

/** Asking for the options proves it is the account's owner at the keyboard, not only someone with their session. */
export const ZPasskeyOptionsRequest = z.object({ currentPassword: z.string().min(1, 'Enter your password').max(1024) });
export type TPasskeyOptionsRequest = z.infer<typeof ZPasskeyOptionsRequest>;

const ZPasskeyName = z
  .string()
  .trim()
  .min(1, 'Enter a name for the passkey')
  .max(100, 'A passkey’s name is at most 100 characters')
  // A name is one line of text: it is shown in lists and told in mail.
  .regex(/^[^\p{Cc}\u2028\u2029]*$/u, 'A passkey’s name is one line of text');

/** The passkey the browser made from the last options (WebAuthn's registration response in its JSON form), and its name. */
export const ZAddPasskeyRequest = z.object({ name: ZPasskeyName, response: z.record(z.string(), z.unknown()) });
export type TAddPasskeyRequest = z.infer<typeof ZAddPasskeyRequest>;
export const ZRenamePasskeyRequest = z.object({ name: ZPasskeyName });
