import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { featureDisabledMessage, parseFlags, type FlagName } from '../../common/flags';
import { planAllows, requiredPlan, type Feature } from '../../common/plans';
import { authenticateApiKey } from '../auth/api-keys';
import { authenticate } from '../auth/guard';
import type { Viewer } from '../context';
import { orgs } from '../db/schema';
import type { Db } from '../db/store';
import { orgSubscriptions } from '../orgs/load';
import { forbidden, unauthorized } from '../errors';

/**
 * Who may call a route. Every API route declares it in its options (`config: { access: 'admin' }`), and the server
 * refuses to start with a route that does not, so a new route can never be open by accident.
 * - public: anyone (sign-in, health, public topics)
 * - signedIn: a member of the org with a valid id token
 * - admin: an admin of the org
 * - apiKey: a program holding one of the org's unrevoked API keys (no member behind it: `apiKeyCallerOf`)
 */
export type RouteAccess = 'public' | 'signedIn' | 'admin' | 'apiKey';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The plan feature this route needs (spec shell-and-account §5); checked after the role. */
    feature?: Feature;
    /** Feature flags of the org that must all be on (spec §6); checked after the plan. */
    flags?: readonly FlagName[];
  }
}

export const ADMIN_REQUIRED_MESSAGE = 'Only workspace admins can do this.';

export function planRequiredMessage(feature: Feature): string {
  return `This needs the ${requiredPlan(feature)} plan (feature: ${feature}).`;
}

/** Throws 403 PLAN_REQUIRED unless the org has an ACTIVE or unexpired TRIAL subscription at the feature's plan. */
export async function requireFeature(
  db: Db,
  orgId: string,
  feature: Feature,
  now = new Date(),
): Promise<void> {
  const subs = await orgSubscriptions(db, orgId);
  if (!planAllows(subs, feature, now)) throw forbidden(planRequiredMessage(feature), 'PLAN_REQUIRED');
}

/** Throws 403 FEATURE_DISABLED unless every one of `flags` is on for the org. */
export async function requireFlags(db: Db, orgId: string, flags: readonly FlagName[]): Promise<void> {
  const [org] = await db.select({ flags: orgs.flags }).from(orgs).where(eq(orgs.id, orgId)).limit(1);
  const effective = parseFlags(org?.flags);
  const off = flags.find((flag) => effective[flag] !== true);
  if (off) throw forbidden(featureDisabledMessage(off), 'FEATURE_DISABLED');
}

export function requireAdmin(viewer: Viewer): void {
  if (!viewer.admin) throw forbidden(ADMIN_REQUIRED_MESSAGE, 'ADMIN_REQUIRED');
}

/** The viewer of a signed-in route; the access hook has already resolved it. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export type ApiRoute = {
  method: string;
  url: string;
  access: RouteAccess;
  feature: Feature | undefined;
  flags: readonly FlagName[];
  /** The route's zod schemas (body, querystring, params), which the fuzzer generates requests from. */
  schema: RouteOptions['schema'];
};

const apiRoutes = new WeakMap<FastifyInstance, ApiRoute[]>();

/** Every API route of a built server with its declared access: the route-walking policy test reads this. */
export function listApiRoutes(app: FastifyInstance): readonly ApiRoute[] {
  return apiRoutes.get(app) ?? [];
}

/** Registers the start-up check and the per-request enforcement of route access. */
export function registerAccessPolicy(app: FastifyInstance): void {
  const routes: ApiRoute[] = [];
  apiRoutes.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    const access = route.config?.access;
    if (access !== 'public' && access !== 'signedIn' && access !== 'admin' && access !== 'apiKey') {
      throw new Error(
        `${String(route.method)} ${route.url} declares no access ('public', 'signedIn', 'admin' or 'apiKey')`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          access,
          feature: route.config?.feature,
          flags: route.config?.flags ?? [],
          schema: route.schema,
        });
    }
  });

  // onRequest, before the body is read: a caller without a valid token learns nothing about the payload's shape.
  app.addHook('onRequest', async (request) => {
    const { access, feature, flags } = request.routeOptions.config;
    if (!access || access === 'public') return;
    const { db } = request.server.ctx.store;
    let orgId: string;
    if (access === 'apiKey') {
      orgId = (await authenticateApiKey(request)).orgId;
    } else {
      const viewer = await authenticate(request);
      if (access === 'admin') requireAdmin(viewer);
      orgId = viewer.orgId;
    }
    if (feature) await requireFeature(db, orgId, feature);
    if (flags?.length) await requireFlags(db, orgId, flags);
  });
}
