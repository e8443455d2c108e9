import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';
import type { TItem } from './items.ts';

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

/**
 * `details` of a `name_conflict` answer about an item's name: a free name to offer instead and,
 * when an item is created, the item in the folder that already has the name (whoever may create in
 * a folder sees everything in it): a client making a folder that exists can use it without a search.
 */
export interface NameConflictDetails {
  suggestedName: string;
  existing?: { id: string; kind: TItem['kind'] };
}
