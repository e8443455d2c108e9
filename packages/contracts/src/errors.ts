import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';

export const ZErrorCode = z.enum(ERROR_CODES);

export const ZErrorEnvelope = z.object({
  error: z.object({
    code: ZErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string(),
  }),
});
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

/** `details.fields` of an `invalid_input` answer: one entry per offending field. */
export interface FieldError {
  path: string;
  message: string;
}
