import { z } from 'zod';

/** What the browser needs to know of the installation (before anyone signs in, too). */
export const ZPublicConfig = z.object({
  providerName: z.string(),
  embeddedProvider: z.boolean(),
  version: z.string(),
  /** A document's revision is kept after this many minutes of editing (and when the last editor leaves). */
  documentRevisionMinutes: z.number().int(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
