import type { Config } from './config';
import type { Store } from './db/store';
import type { Mailer } from './email/mailer';
import type { Notifier } from './notifications/notifier';

/** What every route handler may reach: the store, the parsed config and the keys derived at start. */
export type ServerContext = {
  store: Store;
  config: Config;
  version: string;
  tokenKey: Uint8Array;
  mailer: Mailer;
  /** Sends inbox notifications, emails and desktop marks (server/notifications). */
  notifier: Notifier;
};

/** The signed-in member making a request, as the auth guard resolved it from the bearer token. */
export type Viewer = {
  userId: string;
  orgId: string;
  email: string;
  admin: boolean;
  sessionId: string;
};

declare module 'fastify' {
  interface FastifyInstance {
    ctx: ServerContext;
  }
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}
