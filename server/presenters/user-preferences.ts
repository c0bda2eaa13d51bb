import { userPreferencesSchema, type UserPreferences } from '../../common/api/users';
import type { JsonObject } from '../db/schema';

const KEYS = Object.keys(userPreferencesSchema.shape) as (keyof UserPreferences)[];

/** A member's stored preferences, each known key read leniently: missing or malformed reads as null (unset). */
export function presentUserPreferences(stored: JsonObject): UserPreferences {
  const read = Object.fromEntries(KEYS.map((key) => [key, null])) as UserPreferences;
  for (const key of KEYS) {
    const parsed = userPreferencesSchema.shape[key].safeParse(stored[key]);
    if (parsed.success) Object.assign(read, { [key]: parsed.data });
  }
  return read;
}
