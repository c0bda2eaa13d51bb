import { SYNC_WINDOW_MS } from '../../common/connection-status';
import { systemClock, type Clock } from './clock';
import { FatalSourceError, InvalidCredentialsError } from './errors';
import { createHttpClient } from './http';
import { RequestLimiter, type RequestLimits } from './limits';
import { silentLogger, type ConnectorLogger } from './logger';
import type { Connector, ConnectorContext, FileParser, SiteArchives } from './types';

export interface ConnectorContextInput {
  /** The decrypted credentials as stored (or the install payload); parsed with the connector's schema. */
  readonly credentials: unknown;
  readonly config: unknown;
  readonly logger?: ConnectorLogger;
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  /** The jitter source of retries, in [0, 1). */
  readonly random?: () => number;
  /**
   * The connection's limiter. Keep one per connection (`createConnectionLimiter`) and pass it to every context
   * of that connection, so a sync and a permission sync running side by side share the vendor's allowance.
   */
  readonly limiter?: RequestLimiter;
  /** The host's uploaded archives, scoped to the connection (server/uploads/site-archives.ts). */
  readonly siteArchives?: SiteArchives;
  /** The host's parsers (server/sync/file-parser.ts). */
  readonly files?: FileParser;
}

const noSiteArchives: SiteArchives = { find: () => Promise.resolve(null) };
const noFileParser: FileParser = { parse: () => Promise.resolve(null) };

export function createConnectionLimiter(
  connector: { readonly limits?: RequestLimits },
  clock: Clock = systemClock,
): RequestLimiter {
  return new RequestLimiter(connector.limits ?? {}, clock);
}

/**
 * The key of the limiter a connection uses: the one its org's connections of the vendor share, or its own when the
 * vendor meters each user or mailbox apart (`limitScope: 'connection'`).
 */
export function vendorLimiterKey(
  connection: { readonly orgId: string; readonly id: string },
  connector: {
    readonly shortname: string;
    readonly vendor?: string;
    readonly limitScope?: 'org' | 'connection';
  },
) {
  const vendorKey = `${connection.orgId}:${connector.vendor ?? connector.shortname}`;
  return connector.limitScope === 'connection' ? `${vendorKey}:${connection.id}` : vendorKey;
}

/**
 * What the engine (and the conformance kit) builds before calling a connector. Credentials that no longer fit the
 * schema are reported as invalid credentials: reconnecting is the one fix a user has.
 */
export function createConnectorContext<Credentials, Config>(
  connector: Connector<Credentials, Config>,
  input: ConnectorContextInput,
): ConnectorContext<Credentials, Config> {
  const credentials = connector.credentialsSchema.safeParse(input.credentials);
  // No zod detail here: issue messages are safe, but a credential has no business near an error message.
  if (!credentials.success) throw new InvalidCredentialsError(connector.credentialName);
  const config = connector.configSchema.safeParse(input.config);
  if (!config.success) {
    const fields = config.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new FatalSourceError(`${connector.shortname}: the connection settings do not fit (${fields})`);
  }
  const clock = input.clock ?? systemClock;
  const logger = input.logger ?? silentLogger;
  const signal = input.signal ?? new AbortController().signal;
  const http = createHttpClient({
    logger,
    signal,
    clock,
    random: input.random,
    limiter: input.limiter ?? createConnectionLimiter(connector, clock),
    credentialName: connector.credentialName,
  });
  return {
    credentials: credentials.data,
    config: config.data,
    http,
    logger,
    signal,
    now: () => new Date(clock.now()),
    sleep: (ms) => clock.sleep(ms, signal),
    syncWindowStart: new Date(clock.now() - SYNC_WINDOW_MS),
    siteArchives: input.siteArchives ?? noSiteArchives,
    files: input.files ?? noFileParser,
  };
}
