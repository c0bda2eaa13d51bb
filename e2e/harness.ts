import type { AddressInfo } from 'node:net';
import type { LoginTokens } from '../common/api/session';
import { createOrg, createUser, loginTokensFor } from '../server/testing/fixtures';
import { createTestServer } from '../server/testing/server';

export { launchBrowser } from './browser';

export type RunningScout = {
  baseUrl: string;
  stop(): Promise<void>;
  /** Creates the org on first use of its domain (with these settings); later calls reuse it as it is. */
  createUser(options: {
    email: string;
    admin?: boolean;
    orgDomain?: string;
    workspaceSetup?: boolean;
    flags?: Record<string, boolean>;
  }): Promise<{ tokens: LoginTokens }>;
};

/** The real server with the built SPA (dist/app, made by `npm run build`) on a fresh store and a free port. */
export async function startScout(): Promise<RunningScout> {
  const server = await createTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: () => server.close(),
    async createUser({ email, admin, orgDomain, workspaceSetup, flags }) {
      const domain = orgDomain ?? email.split('@')[1] ?? 'example.test';
      const org = await createOrg(server.store.db, { domain, workspaceSetup, flags });
      const user = await createUser(server.store.db, org, { email, admin });
      return { tokens: await loginTokensFor(server.ctx, user) };
    },
  };
}
