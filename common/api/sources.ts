// What a member can search (spec asking-questions §2 source picker, apps-and-connections §4 Search scope): every
// app they can search, uploads as Files and verified answers, each with how many indexed documents of it the member
// may read. The spec shows no call for it, so the path is ours; the entries borrow the spec's appName and numDocs
// (allReferencesSummary, skillRetrieved).
import { z } from 'zod';

export const sourceCountSchema = z.object({
  /** The app's shortname, as a question's skill filters name it. */
  appName: z.string(),
  /** Indexed documents of the app this member may read; 0 for a connection that has not indexed anything yet. */
  numDocs: z.number().int().min(0),
});
export type SourceCount = z.infer<typeof sourceCountSchema>;

/** `GET /sources`. */
export const searchableSourcesResponseSchema = z.object({
  /**
   * Apps with a working connection of the member's own or of the org, and any other app whose documents the member
   * may read; by appName.
   */
  apps: z.array(sourceCountSchema),
  /** Uploaded files the member may read. */
  files: z.object({ numDocs: z.number().int().min(0) }),
  /** Verified answers the member may read. */
  answers: z.object({ numDocs: z.number().int().min(0) }),
});
export type SearchableSourcesResponse = z.infer<typeof searchableSourcesResponseSchema>;
