import { and, eq } from 'drizzle-orm';
import type { CurrentUser } from '../../common/api/session';
import type { Viewer } from '../context';
import { orgs, users } from '../db/schema';
import type { Db } from '../db/store';
import { unauthorized } from '../errors';
import { presentCurrentUser } from '../presenters/user';

/** The viewer as `GET /_fetchData/user` shows them; a vanished user or org ends the session. */
export async function currentUserOf(db: Db, viewer: Viewer): Promise<CurrentUser> {
  const [row] = await db
    .select({ user: users, org: orgs })
    .from(users)
    .innerJoin(orgs, eq(orgs.id, users.orgId))
    .where(and(eq(users.id, viewer.userId), eq(users.orgId, viewer.orgId)))
    .limit(1);
  if (!row) throw unauthorized();
  return presentCurrentUser(row.user, row.org);
}
