// Slack's own WebClient, carried over the connection's HTTP client: the SDK's limiter, Retry-After handling,
// retries, abort signal and clock apply to every Slack call, and the WebClient's own retry queue is switched off
// so a 429 is waited out once, in one place. Slack answers HTTP 200 with `ok: false` for its errors; they are
// translated here into the SDK's error classes, which is all the sync engine branches on.
import {
  LogLevel,
  SlackError,
  WebAPIPlatformError,
  WebAPIRequestError,
  WebClient,
  type FetchFunction,
  type Logger,
} from '@slack/web-api';
import { CREDENTIAL_NAMES, connectorMessages } from '../../common/strings';
import {
  ConnectorError,
  FatalSourceError,
  InvalidCredentialsError,
  NotFoundError,
  PermissionMismatchError,
  TransientError,
  type ConnectorLogger,
  type HttpClient,
} from '../sdk';

/** The token no longer works: only a reconnect (or the engine's token refresh) can help. */
const REVOKED = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'team_not_found',
  'enterprise_is_restricted',
]);
/** The item is gone or the app was removed from it: a sync skips it, pruning removes what was indexed. */
const GONE = new Set([
  'channel_not_found',
  'not_in_channel',
  'thread_not_found',
  'user_not_found',
  'file_not_found',
  'file_deleted',
]);
/** The token works but lacks a scope or a grant the reads need. */
const UNGRANTED = new Set(['missing_scope', 'no_permission', 'team_access_not_granted']);
/** Slack's own trouble: worth another try later. */
const UNWELL = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
  'team_added_to_org',
]);

function fromPlatform(method: string, code: string): ConnectorError {
  if (REVOKED.has(code)) return new InvalidCredentialsError(CREDENTIAL_NAMES.credentials);
  if (UNGRANTED.has(code)) return new PermissionMismatchError(connectorMessages.SLACK_MISSING_SCOPE);
  if (GONE.has(code)) return new NotFoundError(404, 'POST', `/${method}`, code);
  if (UNWELL.has(code)) return new TransientError(`${method} answered ${code}`);
  return new FatalSourceError(`${method} answered ${code}`);
}

/** A WebClient error as the SDK's error, keeping our own errors (raised by the HTTP client) as they were. */
export function translateSlackError(method: string, error: unknown): unknown {
  if (error instanceof WebAPIRequestError && error.original instanceof ConnectorError) return error.original;
  if (error instanceof WebAPIPlatformError) return fromPlatform(method, error.data.error);
  if (error instanceof SlackError)
    return new TransientError(`${method} failed: ${error.code}`, { cause: error });
  return error;
}

/** Slack's fetch through our HTTP client; a non-2xx the client lets through is handed back for Slack to read. */
function fetchThrough(http: HttpClient): FetchFunction {
  return async (url, init) => {
    const body = init?.body;
    if (body !== undefined && typeof body !== 'string')
      throw new FatalSourceError('Slack file uploads are not part of reading a workspace');
    const response = await http.request(String(url), {
      method: init?.method ?? 'POST',
      headers: init?.headers,
      body,
    });
    const text = response.text();
    return {
      ok: response.status >= 200 && response.status < 300,
      status: response.status,
      statusText: '',
      url: String(url),
      headers: response.headers,
      arrayBuffer: () => Promise.resolve(response.body.slice().buffer),
      json: () => Promise.resolve(JSON.parse(text) as unknown),
      text: () => Promise.resolve(text),
    };
  };
}

/** WebClient's log lines go to the connection's logger; its debug lines carry request bodies, so they stay out. */
function loggerFor(logger: ConnectorLogger): Logger {
  const text = (parts: unknown[]) => parts.map(String).join(' ');
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...parts: unknown[]) => logger.warn({ vendor: 'slack' }, text(parts)),
    error: (...parts: unknown[]) => logger.error({ vendor: 'slack' }, text(parts)),
    setLevel: () => undefined,
    getLevel: () => LogLevel.WARN,
    setName: () => undefined,
  };
}

export interface SlackApi {
  /** Runs one WebClient call, its errors translated; `method` names it in errors. */
  call<T>(method: string, run: (client: WebClient) => Promise<T>): Promise<T>;
}

export function slackApi(http: HttpClient, apiUrl: string, token: string, logger: ConnectorLogger): SlackApi {
  const slackApiUrl = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  const client = new WebClient(token, {
    slackApiUrl,
    fetch: fetchThrough(http.with({ baseUrl: slackApiUrl, credentialName: CREDENTIAL_NAMES.credentials })),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    allowAbsoluteUrls: false,
    logger: loggerFor(logger),
  });
  return {
    async call(method, run) {
      try {
        return await run(client);
      } catch (error) {
        throw translateSlackError(method, error);
      }
    },
  };
}
