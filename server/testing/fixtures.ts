import { eq } from 'drizzle-orm';
import type { LoginTokens } from '../../common/api/session';
import { signIdToken } from '../auth/tokens';
import type { ServerContext } from '../context';
import { newId } from '../db/ids';
import { orgs, subscriptions, users, type Org, type User } from '../db/schema';
import type { Db } from '../db/store';

/**
 * Test data goes in through the store like any other data; tests then act through the real HTTP API or browser.
 * Nothing here stands in for code under test.
 */
export async function createOrg(
  db: Db,
  options: {
    domain: string;
    name?: string;
    workspaceSetup?: boolean;
    flags?: Record<string, boolean | number>;
    plan?: 'TEAM' | 'BUSINESS' | 'ENTERPRISE';
  },
): Promise<Org> {
  const [existing] = await db.select().from(orgs).where(eq(orgs.domain, options.domain)).limit(1);
  if (existing) return existing;
  const [org] = await db
    .insert(orgs)
    .values({
      domain: options.domain,
      name: options.name ?? options.domain,
      isWorkspaceSetup: options.workspaceSetup ?? true,
      flags: options.flags ?? {},
    })
    .returning();
  if (!org) throw new Error('org insert returned nothing');
  await db
    .insert(subscriptions)
    .values({ orgId: org.id, planType: options.plan ?? 'ENTERPRISE', status: 'ACTIVE' });
  return org;
}

export async function createUser(
  db: Db,
  org: Org,
  options: { email: string; admin?: boolean; firstName?: string; lastName?: string; status?: User['status'] },
): Promise<User> {
  const [user] = await db
    .insert(users)
    .values({
      orgId: org.id,
      email: options.email.toLowerCase(),
      admin: options.admin ?? false,
      firstName: options.firstName ?? null,
      lastName: options.lastName ?? null,
      status: options.status ?? 'SIGNED_UP',
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  return user;
}

/** Real, signed login tokens for a user, as sign-in would hand them out. */
export async function loginTokensFor(ctx: Pick<ServerContext, 'tokenKey'>, user: User): Promise<LoginTokens> {
  const { token, expiresAt } = await signIdToken(ctx.tokenKey, {
    userId: user.id,
    orgId: user.orgId,
    email: user.email,
    sessionId: newId(),
  });
  return { id_token: token, refresh_token: '', expires_at: expiresAt, username: user.email };
}
