// Org connections of Google apps read every member's data through Scout's service account, to which the
// Workspace's super admin delegated domain-wide authority (Admin console → Security → API controls → Domain-wide
// delegation: the service account's client ID and the scopes below). Google's "Using OAuth 2.0 for Server to Server
// Applications" (https://developers.google.com/identity/protocols/oauth2/service-account#httprest) describes the
// exchange: a JWT signed RS256 with the account's private key, naming the member to act as in `sub`, is traded
// at the token URL for an hour's access token by the JWT-bearer grant (RFC 7523). Nothing is stored per
// connection but the admin's email (the marketplace install payload, spec §7).
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CREDENTIAL_NAMES, google as googleStrings } from '../../common/strings';
import {
  FatalSourceError,
  HttpStatusError,
  InvalidCredentialsError,
  PermissionMismatchError,
  type ConnectorContext,
} from '../sdk';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Google's longest assertion lifetime, and so its access tokens'. */
const ASSERTION_LIFETIME_S = 3600;
/** Take a new token this long before the held one lapses, so it never lapses between two requests of a page. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/** The fields of a service account's JSON key (Cloud console → Service accounts → Keys) that the exchange uses. */
export const serviceAccountKeySchema = z.object({
  type: z.literal('service_account'),
  client_email: z.email(),
  /** The number the super admin enters in the Admin console's domain-wide delegation. */
  client_id: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY'),
  token_uri: z.url().default('https://oauth2.googleapis.com/token'),
});
export type ServiceAccountKey = z.output<typeof serviceAccountKeySchema>;

/**
 * `SCOUT_GOOGLE_SERVICE_ACCOUNT`: the key's JSON itself, or the path of the file holding it. Read on every use, so
 * a key rotated on disk is picked up by the next sync; null when the server has none.
 */
export function configuredServiceAccount(env: NodeJS.ProcessEnv = process.env): ServiceAccountKey | null {
  const setting = env.SCOUT_GOOGLE_SERVICE_ACCOUNT?.trim();
  if (!setting) return null;
  let text: string;
  try {
    text = setting.startsWith('{') ? setting : readFileSync(setting, 'utf8');
  } catch (error) {
    throw new FatalSourceError('SCOUT_GOOGLE_SERVICE_ACCOUNT names a file that cannot be read', {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FatalSourceError('SCOUT_GOOGLE_SERVICE_ACCOUNT is not a service account key', { cause: error });
  }
  const key = serviceAccountKeySchema.safeParse(json);
  if (!key.success) throw new FatalSourceError('SCOUT_GOOGLE_SERVICE_ACCOUNT is not a service account key');
  return key.data;
}

function requireServiceAccount(): ServiceAccountKey {
  const key = configuredServiceAccount();
  if (!key) throw new FatalSourceError('no Google service account is configured on this server');
  return key;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed JWT that asks for `scopes` as `subject` (Google's claim set: iss, sub, scope, aud, iat, exp). */
function signedAssertion(
  key: ServiceAccountKey,
  subject: string,
  scopes: readonly string[],
  now: Date,
): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: key.client_email,
      sub: subject,
      scope: scopes.join(' '),
      aud: key.token_uri,
      iat,
      exp: iat + ASSERTION_LIFETIME_S,
    }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

/** Who a request acts as, and with which scopes. */
export interface Delegation {
  readonly subject: string;
  readonly scopes: readonly string[];
}

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive(),
});
const tokenErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** Thrown when Google will not issue a token for the member: unknown to the Workspace, suspended or deleted. */
export class UnknownMemberError extends InvalidCredentialsError {}

interface HeldToken {
  readonly value: string;
  readonly expiresAt: number;
}
/** Tokens per connection client (all of a job's contexts share it) and per member and scopes. */
const held = new WeakMap<object, Map<string, Promise<HeldToken>>>();

async function requestToken(ctx: ConnectorContext<unknown, unknown>, delegation: Delegation) {
  const key = requireServiceAccount();
  const tokenUrl = new URL(key.token_uri);
  const client = ctx.http.with({
    baseUrl: tokenUrl.origin,
    // Google answers a refused grant with 400 or 401 and an RFC 6749 error; it is sorted out below.
    classifyAuthFailure: () => ({ kind: 'httpError' }),
  });
  try {
    const answer = await client.json(tokenUrl.pathname, tokenAnswerSchema, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: JWT_BEARER_GRANT,
        assertion: signedAssertion(key, delegation.subject, delegation.scopes, ctx.now()),
      }),
    });
    return { value: answer.access_token, expiresAt: ctx.now().getTime() + answer.expires_in * 1000 };
  } catch (error) {
    if (!(error instanceof HttpStatusError) || error.status >= 500) throw error;
    let answer: z.output<typeof tokenErrorSchema> | undefined;
    try {
      answer = tokenErrorSchema.safeParse(JSON.parse(error.bodyExcerpt)).data;
    } catch {
      // Not JSON: treated as a refusal of the credentials below.
    }
    // unauthorized_client: the client ID is not in the Admin console's delegation, or lacks one of the scopes.
    if (answer?.error === 'unauthorized_client' || answer?.error === 'access_denied')
      throw new PermissionMismatchError(googleStrings.DELEGATION_REQUIRED, { cause: error });
    // invalid_grant also answers a bad signature or clock: only this description says the member is unknown.
    if (answer?.error === 'invalid_grant' && /invalid email or user id/i.test(answer.error_description ?? ''))
      throw new UnknownMemberError(CREDENTIAL_NAMES.credentials, { cause: error });
    throw new InvalidCredentialsError(CREDENTIAL_NAMES.credentials, { cause: error });
  }
}

/** An access token acting as `delegation.subject`; `renew` trades for a new one (Google refused the last). */
export async function delegatedToken(
  ctx: ConnectorContext<unknown, unknown>,
  delegation: Delegation,
  renew: boolean,
): Promise<string> {
  let tokens = held.get(ctx.http);
  if (!tokens) {
    tokens = new Map();
    held.set(ctx.http, tokens);
  }
  const slot = `${delegation.subject.toLowerCase()} ${[...delegation.scopes].sort().join(' ')}`;
  const current = renew ? undefined : await tokens.get(slot)?.catch(() => undefined);
  if (current && current.expiresAt - ctx.now().getTime() > TOKEN_MARGIN_MS) return current.value;
  const next = requestToken(ctx, delegation);
  tokens.set(slot, next);
  next.catch(() => tokens.delete(slot));
  return (await next).value;
}
