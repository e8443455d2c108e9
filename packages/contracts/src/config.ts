import { z } from 'zod';

/** What the browser needs to know before anyone signs in. */
export const ZPublicConfig = z.object({
  providerName: z.string(),
  embeddedProvider: z.boolean(),
  version: z.string(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
