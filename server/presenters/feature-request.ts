import type { FeatureRequest } from '../../common/api/feature-requests';
import type { FeatureRequest as FeatureRequestRow, User } from '../db/schema';
import { displayNameOf } from './user';

/** A feature request as an admin of its org reads it. */
export function presentFeatureRequest(
  row: FeatureRequestRow,
  author: Pick<User, 'email' | 'displayName' | 'firstName' | 'lastName'> | null,
): FeatureRequest {
  return {
    id: row.id,
    text: row.text,
    author: author ? { email: author.email, display_name: displayNameOf(author) } : null,
    created_at: row.createdAt.toISOString(),
  };
}
