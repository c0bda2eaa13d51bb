import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { PHOTO_MIME_TYPES, imageMessages } from '../../common/api/orgs';
import type { UserPreferencesUpdateRequest, UserUpdateRequest } from '../../common/api/users';
import { LOGO_MAX_BYTES } from '../../common/limits';
import type { Viewer } from '../context';
import { orgs, users, type User } from '../db/schema';
import type { Db } from '../db/store';
import { badRequest, unauthorized } from '../errors';
import { decodeDataUrl, readImageDataUrl } from '../images/data-url';
import { checkBackgroundImage } from '../orgs/settings';
import { requirePersonalBackgroundAllowed } from '../policies/users';
import { readOrgPreferences } from '../presenters/org';

/** A profile photo: PNG, JPEG, WebP or GIF, at most 5 MB decoded, whose bytes are what it claims. */
function checkPhoto(dataUrl: string): string {
  const image = readImageDataUrl(dataUrl, { maxBytes: LOGO_MAX_BYTES, allowed: PHOTO_MIME_TYPES });
  if (image === 'too-large') throw badRequest(imageMessages.PHOTO_TOO_LARGE);
  if (image === 'not-an-image') throw badRequest(imageMessages.PHOTO_NOT_AN_IMAGE);
  return dataUrl;
}

/** Writes the viewer's own profile fields; the photo is kept as its data URL (photoUrl), served by /users/self/photo. */
export async function updateProfile(db: Db, viewer: Viewer, body: UserUpdateRequest): Promise<void> {
  const set: PgUpdateSetSource<typeof users> = {};
  if (body.photo !== undefined) set.photoUrl = body.photo === null ? null : checkPhoto(body.photo);
  if (body.first_name !== undefined) set.firstName = body.first_name;
  if (body.last_name !== undefined) set.lastName = body.last_name;
  if (body.display_name !== undefined) set.displayName = body.display_name;
  if (body.has_seen_web_onboarding !== undefined) set.hasSeenWebOnboarding = body.has_seen_web_onboarding;
  if (Object.keys(set).length === 0) return;
  await db
    .update(users)
    .set(set)
    .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)));
}

/** Merges the viewer's personal background into their preferences; answers the stored preferences. */
export async function updatePreferences(
  db: Db,
  viewer: Viewer,
  body: UserPreferencesUpdateRequest,
): Promise<User['preferences']> {
  const [org] = await db
    .select({ preferences: orgs.preferences })
    .from(orgs)
    .where(eq(orgs.id, viewer.orgId));
  if (!org) throw unauthorized();
  const settingOne = Object.values(body).some((value) => value !== null && value !== undefined);
  requirePersonalBackgroundAllowed(readOrgPreferences(org.preferences).background_allow_user, settingOne);
  if (body.background_image) checkBackgroundImage(body.background_image);
  const [row] = await db
    .update(users)
    .set({ preferences: sql`coalesce(${users.preferences}, '{}'::jsonb) || ${JSON.stringify(body)}::jsonb` })
    .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
    .returning({ preferences: users.preferences });
  if (!row) throw unauthorized();
  return row.preferences;
}

export type Photo = { kind: 'bytes'; mimeType: string; bytes: Buffer } | { kind: 'link'; url: string };

/** The photo a member has: uploaded bytes, a link (an identity provider's picture), or null. */
export function photoOf(user: Pick<User, 'photoUrl'>): Photo | null {
  if (!user.photoUrl) return null;
  const decoded = decodeDataUrl(user.photoUrl);
  if (decoded) return { kind: 'bytes', ...decoded };
  return /^https?:\/\//i.test(user.photoUrl) ? { kind: 'link', url: user.photoUrl } : null;
}
