// Scout fetches some URLs that a user typed or a web page chose, from inside the organisation's network: a website
// to crawl, an org's OpenID issuer (discovery, token and key endpoints). Left alone such a fetch would reach
// http://169.254.169.254/ (cloud credentials), http://localhost:5432/ or an intranet admin page for anyone who can
// add a website or configure SSO. So every address a guarded fetch connects to must be a public unicast address:
//   1. before each request (and each redirect hop a caller chooses to follow), the host is resolved — every address
//      it has — and refused if any address is not public; IP literals are checked as is;
//   2. at connection time, the guarded dispatcher's `lookup` checks the addresses the socket will really use, so
//      a name that resolved to a public address for check 1 and to 127.0.0.1 a moment later (DNS rebinding) is
//      refused too. Check 1 alone would leave that window open; check 2 alone would not cover IP literals, which
//      never go through lookup.
// URLs from the operator's own environment (an LLM, the embeddings API, web search, CAPTCHA) are trusted and not
// guarded. The operator relaxes the guard with SCOUT_ALLOW_PRIVATE_HOSTS (SCOUT_CRAWL_ALLOW_PRIVATE, its older
// name, still counts): '1' allows every address, a comma-separated list of host names ('wiki.corp,10.0.0.5') allows
// those hosts only, so that an intranet wiki or identity provider is reachable without opening the cloud metadata
// address too.
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FatalSourceError, ResponseTooLargeError, TransientError } from './errors';
import { readBody, type HttpDispatcher } from './http';
import { silentLogger, type ConnectorLogger } from './logger';

export const ALLOW_PRIVATE_ENV = 'SCOUT_ALLOW_PRIVATE_HOSTS';
/** The crawler's variable from before every outbound fetch was guarded; read as well as ALLOW_PRIVATE_ENV. */
export const CRAWL_ALLOW_PRIVATE_ENV = 'SCOUT_CRAWL_ALLOW_PRIVATE';

/** Which hosts may resolve to non-public addresses: all (true), none (false), or these names. */
export type PrivateAccess = boolean | readonly string[];

/** One variable's value: '1' or 'true' allows all, a list of host names allows those, anything else none. */
export function parsePrivateAccess(value: string | undefined): PrivateAccess {
  const trimmed = (value ?? '').trim().toLowerCase();
  if (trimmed === '1' || trimmed === 'true') return true;
  if (trimmed === '' || trimmed === '0' || trimmed === 'false') return false;
  return trimmed
    .split(',')
    .map((host) => host.trim().replace(/^\[(.*)\]$/, '$1'))
    .filter(Boolean);
}

/** What SCOUT_ALLOW_PRIVATE_HOSTS and SCOUT_CRAWL_ALLOW_PRIVATE allow together. */
export function privateAccessFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): PrivateAccess {
  const both = [parsePrivateAccess(env[ALLOW_PRIVATE_ENV]), parsePrivateAccess(env[CRAWL_ALLOW_PRIVATE_ENV])];
  if (both.some((access) => access === true)) return true;
  const hosts = [...new Set(both.flatMap((access) => (typeof access === 'boolean' ? [] : access)))];
  return hosts.length === 0 ? false : hosts;
}

/** Whether the guard lets this host (as a resolver takes it: no brackets) reach any address. */
export function isExemptHost(host: string, access: PrivateAccess): boolean {
  return access === true || (access !== false && access.includes(host.toLowerCase()));
}

/** The guard will not connect there: the address is not a public one. */
export class RefusedAddressError extends FatalSourceError {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refusing to connect to ${host}: ${address} is not a public address`);
  }
}

/** The IPv4 address an IPv6 one stands for: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'ipv4Mapped':
      return address.toIPv4Address();
    case 'rfc6052':
      return new ipaddr.IPv4(bytes.slice(12, 16));
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      return null;
  }
}

/**
 * Only ipaddr.js's 'unicast' range passes: that refuses private (10/8, 172.16/12, 192.168/16), loopback,
 * link-local (169.254/16, fe80::/10), carrier-grade NAT (100.64/10), multicast, broadcast, unspecified, reserved
 * and documentation ranges, unique-local fc00::/7 and Teredo; an IPv6 address carrying an IPv4 one is judged by
 * the IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  return v4 ? v4.range() === 'unicast' : v6.range() === 'unicast';
}

/** Every address a host name resolves to, as the system resolver (and so the connection) sees it. */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The host of a URL as a resolver or an address parser takes it: IPv6 literals lose their brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Check 1: throws RefusedAddressError unless every address of the URL's host is public, before any connection.
 * A name that does not resolve is a TransientError (DNS fails now and then).
 */
export async function assertPublicHost(
  url: URL,
  access: PrivateAccess = false,
  resolve: Resolver = systemResolver,
): Promise<void> {
  const host = bareHost(url);
  if (isExemptHost(host, access)) return;
  let addresses: readonly string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new TransientError(`could not resolve ${host}`, { cause: error });
    }
  }
  if (addresses.length === 0) throw new TransientError(`${host} has no address`);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) throw new RefusedAddressError(host, refused);
}

/** Check 2: a `lookup` for net/tls.connect that answers only with public addresses, and refuses the name otherwise. */
export const guardedLookup =
  (access: PrivateAccess): LookupFunction =>
  (hostname, options, callback) => {
    if (isExemptHost(hostname, access)) {
      dns.lookup(hostname, options, callback);
      return;
    }
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((entry) => !isPublicAddress(entry.address));
      const first = addresses[0];
      if (refused !== undefined || first === undefined) {
        const reason = new RefusedAddressError(hostname, refused?.address ?? 'no address');
        callback(Object.assign(reason, { code: 'ERR_SCOUT_REFUSED_ADDRESS' }), '', 0);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };

export interface GuardedDispatcher extends HttpDispatcher {
  close(): Promise<void>;
}

type AgentClass = new (options: { connect: { lookup: LookupFunction } }) => GuardedDispatcher;

// Node's fetch is undici, which keeps its global dispatcher (an Agent unless someone replaced it) under this
// symbol, shared on purpose between Node's copy and the npm package. Its class is the only way to build an Agent
// with our `lookup` without depending on the `undici` package; with that package, this is `new Agent(…)`.
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

async function bundledAgentClass(): Promise<AgentClass | undefined> {
  const registry = globalThis as unknown as Record<symbol, unknown>;
  if (registry[GLOBAL_DISPATCHER] === undefined) {
    // Node loads undici, and so sets the global dispatcher, on the first call of fetch.
    await fetch('data:,').catch(() => undefined);
  }
  const dispatcher = registry[GLOBAL_DISPATCHER];
  const constructor: unknown =
    typeof dispatcher === 'object' && dispatcher !== null ? dispatcher.constructor : undefined;
  return typeof constructor === 'function' && constructor.name === 'Agent'
    ? (constructor as AgentClass)
    : undefined;
}

/**
 * An Agent whose connections only reach public addresses (check 2), or undefined when this Node has none to offer
 * (a proxy installed as the global dispatcher resolves names itself): check 1 still applies, and a warning says
 * that rebinding is not covered.
 */
export async function createGuardedDispatcher(
  access: PrivateAccess,
  logger: ConnectorLogger,
): Promise<GuardedDispatcher | undefined> {
  const Agent = await bundledAgentClass();
  if (!Agent) {
    logger.warn(
      {},
      'no undici Agent to vet connection addresses; the outbound guard checks addresses before requests only',
    );
    return undefined;
  }
  return new Agent({ connect: { lookup: guardedLookup(access) } });
}

/** A fetch for libraries that take one (openid-client's customFetch): Node's fetch, guarded and bounded. */
export type GuardedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  readonly access: PrivateAccess;
  /** The whole exchange, body included; the caller's own signal may end it sooner. */
  readonly timeoutMs?: number;
  /** The largest body read; a larger one fails with ResponseTooLargeError instead of filling memory. */
  readonly maxBodyBytes?: number;
  readonly logger?: ConnectorLogger;
  /** Check 1's resolver; check 2 always asks the system's, as the connection does. */
  readonly resolve?: Resolver;
}

export const GUARDED_FETCH_TIMEOUT_MS = 30_000;
/** Ample for what guarded callers read (OpenID metadata, key sets, token answers). */
export const GUARDED_FETCH_MAX_BODY_BYTES = 1024 * 1024;

/** They describe the body as it crossed the wire, not the decoded bytes handed on. */
const WIRE_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding'];

/**
 * Checks 1 and 2 on every request, through one dispatcher made on first use. Redirects are never followed: the 3xx
 * is handed back, and a hop the caller chooses to take is a new request, checked as the first was.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const {
    access,
    timeoutMs = GUARDED_FETCH_TIMEOUT_MS,
    maxBodyBytes = GUARDED_FETCH_MAX_BODY_BYTES,
    logger = silentLogger,
    resolve = systemResolver,
  } = options;
  let dispatcher: Promise<GuardedDispatcher | undefined> | undefined;
  return async (input, init = {}) => {
    const url = new URL(input);
    await assertPublicHost(url, access, resolve);
    dispatcher ??= access === true ? Promise.resolve(undefined) : createGuardedDispatcher(access, logger);
    const via = await dispatcher;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    // `dispatcher` is Node's extension of RequestInit, absent from the DOM typing this project compiles with.
    const guarded = {
      ...init,
      redirect: 'manual',
      signal,
      ...(via ? { dispatcher: via } : {}),
    } as RequestInit;
    const response = await fetch(url, guarded);
    const body = await readBody(response, maxBodyBytes);
    if (body === null) throw new ResponseTooLargeError(init.method ?? 'GET', url.pathname, maxBodyBytes);
    const headers = new Headers(response.headers);
    for (const name of WIRE_HEADERS) headers.delete(name);
    return new Response(body.byteLength === 0 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
