// Google's token endpoint for service accounts with domain-wide delegation, on a fake server: it takes the
// JWT-bearer grant (RFC 7523) as Google documents it, verifies the assertion's RS256 signature with the service
// account's public key (real crypto), its audience and lifetime, and issues a token only for a member of the
// Workspace and only for scopes the super admin granted the client ID. API routes then ask whom a bearer acts as.
import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FakeServer } from '../sdk/fake-server';
import { JWT_BEARER_GRANT, type ServiceAccountKey } from './service-account';

export interface FakeServiceAccount {
  /** The key as Cloud console downloads it, its token_uri at the fake: the value of SCOUT_GOOGLE_SERVICE_ACCOUNT. */
  readonly key: ServiceAccountKey;
  /** What the Admin console's domain-wide delegation holds for the client ID (none: not delegated at all). */
  grant(scopes: readonly string[]): void;
  /** Who may be acted as: the Workspace's active users. */
  setMembers(emails: readonly string[]): void;
  /** The member and scopes a bearer token was issued for, or null for a token the endpoint never issued. */
  holderOf(authorization: string | undefined): { subject: string; scopes: readonly string[] } | null;
  /** Every token issued so far stops working (a key rotated, the delegation revoked and granted again). */
  revokeTokens(): void;
  /** The assertions' subjects, in order, as the endpoint accepted them. */
  readonly issuedTo: readonly string[];
}

const claimsSchema = z.object({
  iss: z.string(),
  sub: z.string().optional(),
  scope: z.string(),
  aud: z.string(),
  iat: z.number(),
  exp: z.number(),
});

const refusal = (status: number, error: string, description: string) => ({
  status,
  json: { error, error_description: description },
});

/** Serves `POST /token` on `server` for a new service account whose client ID is `clientId`. */
export function serveServiceAccountTokens(
  server: FakeServer,
  options: { clientId?: string; clientEmail?: string } = {},
): FakeServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key: ServiceAccountKey = {
    type: 'service_account',
    client_email: options.clientEmail ?? 'scout-sync@scout-test.iam.gserviceaccount.com',
    client_id: options.clientId ?? '104857600000000000001',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: `${server.url}/token`,
  };
  let granted = new Set<string>();
  let members = new Set<string>();
  const tokens = new Map<string, { subject: string; scopes: readonly string[] }>();
  const issuedTo: string[] = [];

  server.route('POST', '/token', (request) => {
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== JWT_BEARER_GRANT)
      return refusal(400, 'unsupported_grant_type', 'Invalid grant_type');
    const [header, payload, signature, ...rest] = (form.get('assertion') ?? '').split('.');
    if (!header || !payload || !signature || rest.length > 0)
      return refusal(400, 'invalid_grant', 'Invalid JWT');
    const algorithm = z
      .object({ alg: z.literal('RS256') })
      .safeParse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
    const verified = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(publicKey, Buffer.from(signature, 'base64url'));
    if (!algorithm.success || !verified) return refusal(400, 'invalid_grant', 'Invalid JWT Signature.');
    const claims = claimsSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!claims.success || claims.data.iss !== key.client_email || claims.data.aud !== key.token_uri)
      return refusal(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.',
      );
    const now = Date.now() / 1000;
    if (claims.data.exp - claims.data.iat > 3600 || claims.data.exp < now || claims.data.iat > now + 300)
      return refusal(
        400,
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.',
      );
    const scopes = claims.data.scope.split(' ').filter((scope) => scope !== '');
    if (scopes.length === 0 || scopes.some((scope) => !granted.has(scope)))
      return refusal(
        401,
        'unauthorized_client',
        'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
      );
    const subject = claims.data.sub?.toLowerCase();
    if (!subject || !members.has(subject)) return refusal(400, 'invalid_grant', 'Invalid email or User ID');
    const token = `ya29.dwd-${randomBytes(12).toString('base64url')}`;
    tokens.set(token, { subject, scopes });
    issuedTo.push(subject);
    return { json: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
  });

  return {
    key,
    issuedTo,
    grant(scopes) {
      granted = new Set(scopes);
    },
    setMembers(emails) {
      members = new Set(emails.map((email) => email.toLowerCase()));
    },
    holderOf(authorization) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      return token ? (tokens.get(token) ?? null) : null;
    },
    revokeTokens() {
      tokens.clear();
    },
  };
}
