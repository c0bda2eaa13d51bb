import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  LOGO_MIME_TYPES,
  imageMessages,
  type OrgFlagsUpdateRequest,
  type OrgUpdateRequest,
} from '../../common/api/orgs';
import { parseFlags, type Flags } from '../../common/flags';
import { LOGO_MAX_BYTES } from '../../common/limits';
import { validation } from '../../common/strings';
import { orgs } from '../db/schema';
import type { Db } from '../db/store';
import { badRequest } from '../errors';
import { readImageDataUrl } from '../images/data-url';

/** The PATCH /orgs fields kept in orgs.preferences; company_name, logo and homepage_links have columns of their own. */
const PREFERENCE_KEYS = [
  'background_color',
  'background_type',
  'background_image',
  'background_allow_user',
  'answers',
  'auto_invite_members',
  'override_new_tab_page',
] as const satisfies readonly (keyof OrgUpdateRequest)[];

/** Spec §5 and §9: a PNG, JPEG or WebP of at most 5242880 bytes, as wide as it is high. */
export function checkLogo(dataUrl: string): string {
  const image = readImageDataUrl(dataUrl, { maxBytes: LOGO_MAX_BYTES, allowed: LOGO_MIME_TYPES });
  if (image === 'too-large') throw badRequest(imageMessages.LOGO_TOO_LARGE);
  if (image === 'not-an-image') throw badRequest(imageMessages.LOGO_NOT_AN_IMAGE);
  if (image.width !== image.height) throw badRequest(validation.LOGO_MUST_BE_SQUARE);
  return dataUrl;
}

/** An uploaded background (a web address is taken as it is). */
export function checkBackgroundImage(value: string): string {
  if (!value.startsWith('data:')) return value;
  const image = readImageDataUrl(value, { maxBytes: LOGO_MAX_BYTES, allowed: LOGO_MIME_TYPES });
  if (image === 'too-large') throw badRequest(imageMessages.BACKGROUND_TOO_LARGE);
  if (image === 'not-an-image') throw badRequest(imageMessages.BACKGROUND_NOT_AN_IMAGE);
  return value;
}

/**
 * Applies an admin's settings. Everything is checked before anything is written. Naming the company completes the
 * workspace setup: that is the first admin's setup step (spec §4.5, §6), and once set up an org stays set up.
 */
export async function updateOrgSettings(db: Db, orgId: string, body: OrgUpdateRequest): Promise<void> {
  const set: PgUpdateSetSource<typeof orgs> = {};
  if (body.logo !== undefined) set.logo = body.logo === null ? null : checkLogo(body.logo);
  if (body.background_image) checkBackgroundImage(body.background_image);
  if (body.company_name !== undefined) {
    set.name = body.company_name;
    set.isWorkspaceSetup = true;
  }
  if (body.homepage_links !== undefined) set.homepageLinks = body.homepage_links;
  if (body.public_topics_enabled !== undefined) set.publicTopicsEnabled = body.public_topics_enabled;
  const preferences = Object.fromEntries(
    PREFERENCE_KEYS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]),
  );
  if (Object.keys(preferences).length > 0) {
    // Merged in the statement, so two admins saving different settings at once keep both.
    set.preferences = sql`coalesce(${orgs.preferences}, '{}'::jsonb) || ${JSON.stringify(preferences)}::jsonb`;
  }
  if (Object.keys(set).length === 0) return;
  await db.update(orgs).set(set).where(eq(orgs.id, orgId));
}

/**
 * Switches an admin's flags (or a model's disableModel flag, server/ai-controls) and answers the org's flags in
 * force. Merged in the statement, as preferences are.
 */
export async function updateOrgFlags(
  db: Db,
  orgId: string,
  body: OrgFlagsUpdateRequest | { flags: Record<string, boolean> },
): Promise<Flags> {
  const [org] = await db
    .update(orgs)
    .set({ flags: sql`${orgs.flags} || ${JSON.stringify(body.flags)}::jsonb` })
    .where(eq(orgs.id, orgId))
    .returning({ flags: orgs.flags });
  return parseFlags(org?.flags);
}
