// The custom-api push API (docs/custom-api.md): an organisation's own systems create, update and delete documents
// of a custom-api connection, with who may read each, authenticated by one of the org's API keys. The spec does not
// show this API; its document mirrors what every connector hands the index (external id, title, body, url, author,
// times, ACL).
import { z } from 'zod';
import { ObjectType } from '../catalogue';
import { isoInstantSchema, safeLinkSchema } from './input';

/** Documents per push: big enough for throughput, small enough that one batch is one quick transaction. */
export const CUSTOM_API_MAX_DOCUMENTS = 100;
export const CUSTOM_API_MAX_DELETES = 1000;
export const CUSTOM_API_MAX_GROUPS = 1000;
export const CUSTOM_API_MAX_GROUP_MEMBERS = 10_000;
/** Principals per document ACL. */
export const CUSTOM_API_MAX_ACL_ENTRIES = 1000;
export const CUSTOM_API_MAX_BODY_CHARS = 1_000_000;

export const ACL_NAMES_NOBODY_MESSAGE =
  'An ACL must name users, groups or the whole organisation (org: true).';

export const customApiParamsSchema = z.object({ connectionId: z.uuid() });

const externalId = z.string().min(1).max(512);
const groupId = z.string().trim().min(1).max(256);

export const customApiAclSchema = z
  .strictObject({
    /** Members by email (case does not matter). */
    users: z.array(z.email()).max(CUSTOM_API_MAX_ACL_ENTRIES).default([]),
    /** Ids of groups pushed to `PUT /custom-api/{connectionId}/groups`. */
    groups: z.array(groupId).max(CUSTOM_API_MAX_ACL_ENTRIES).default([]),
    /** Everyone in the organisation. */
    org: z.boolean().default(false),
  })
  .refine((acl) => acl.org || acl.users.length > 0 || acl.groups.length > 0, ACL_NAMES_NOBODY_MESSAGE);
export type CustomApiAcl = z.output<typeof customApiAclSchema>;

export const CUSTOM_API_OBJECT_TYPES = Object.values(ObjectType).filter(
  (type) => type !== ObjectType.All,
) as [Exclude<ObjectType, 'All'>, ...Exclude<ObjectType, 'All'>[]];

export const customApiDocumentSchema = z.strictObject({
  /** Your system's id: pushing the same id again updates the document. */
  id: externalId,
  title: z.string().trim().min(1).max(1000),
  /** Plain text or Markdown; Scout splits it into passages. */
  body: z.string().max(CUSTOM_API_MAX_BODY_CHARS),
  url: safeLinkSchema,
  author: z
    .strictObject({ name: z.string().trim().min(1).optional(), email: z.email().optional() })
    .optional(),
  object_type: z.enum(CUSTOM_API_OBJECT_TYPES).default(ObjectType.Articles),
  file_type: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.+-]*$/)
    .max(32)
    .default('txt'),
  created_at: isoInstantSchema.optional(),
  modified_at: isoInstantSchema.optional(),
  parent_id: externalId.optional(),
  acl: customApiAclSchema,
});
export type CustomApiDocument = z.input<typeof customApiDocumentSchema>;

export const customApiUpsertRequestSchema = z.strictObject({
  documents: z.array(customApiDocumentSchema).min(1).max(CUSTOM_API_MAX_DOCUMENTS),
});
export const customApiUpsertResponseSchema = z.object({
  inserted: z.number().int(),
  /** Existing documents whose content, ACL or metadata changed. */
  updated: z.number().int(),
  unchanged: z.number().int(),
});
export type CustomApiUpsertResponse = z.infer<typeof customApiUpsertResponseSchema>;

export const customApiDeleteRequestSchema = z.strictObject({
  ids: z.array(externalId).min(1).max(CUSTOM_API_MAX_DELETES),
});
export const customApiDeleteResponseSchema = z.object({ deleted: z.number().int() });

export const customApiGroupsRequestSchema = z.strictObject({
  /** Every group of the connection: the previous set is replaced, so a group left out is removed. */
  groups: z
    .array(
      z.strictObject({
        id: groupId,
        members: z.array(z.email()).max(CUSTOM_API_MAX_GROUP_MEMBERS),
      }),
    )
    .max(CUSTOM_API_MAX_GROUPS),
});
export const customApiGroupsResponseSchema = z.object({
  groups: z.number().int(),
  memberships: z.number().int(),
});
