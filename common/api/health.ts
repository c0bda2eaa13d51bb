import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  store: z.object({ kind: z.enum(['embedded', 'server']), reachable: z.boolean() }),
});
export type Health = z.infer<typeof healthSchema>;
