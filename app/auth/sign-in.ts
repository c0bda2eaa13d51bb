import { z } from 'zod';
import {
  authUrlResponseSchema,
  codeDeliveryResponseSchema,
  confirmResponseSchema,
  providerResponseSchema,
  ssoAddressResponseSchema,
} from '../../common/api/auth';
import type {
  CodeDeliveryResponse,
  ConfirmBody,
  ConfirmResponse,
  ProviderResponse,
  SignUpBody,
  SsoAddressResponse,
} from '../../common/api/auth';
import { loginTokensSchema } from '../../common/api/session';
import type { LoginTokens } from '../../common/api/session';
import { api } from '../api/client';
import { writeTokens } from './tokens';

// The sign-in and sign-up calls of spec §7.1, as the server in server/api/auth answers them. None sends a token.

const noContent = z.unknown();

/** The address the server reads `origin` from: our path and query (never the host, which it takes from config). */
export function currentOrigin(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export const signInApi = {
  /** 404 NotFoundError: no org owns the email's domain. */
  provider: (email: string): Promise<ProviderResponse> =>
    api.get('auth/provider', { auth: false, query: { email }, schema: providerResponseSchema }),

  codeDelivery: (): Promise<CodeDeliveryResponse> =>
    api.get('auth/code-delivery', { auth: false, schema: codeDeliveryResponseSchema }),

  requestCode: (email: string): Promise<unknown> =>
    api.post('auth/code-request', {
      auth: false,
      body: { email, origin: currentOrigin() },
      schema: noContent,
    }),

  /** 401: wrong or spent code; 403: may not sign in (blocked, or SSO enforced). */
  confirm: (body: Omit<ConfirmBody, 'origin'>): Promise<ConfirmResponse> =>
    api.post('auth/confirm', {
      auth: false,
      body: { ...body, origin: currentOrigin() },
      schema: confirmResponseSchema,
    }),

  /** The one-time grant the Google and SSO callbacks leave in /login?loginGrant=. */
  grant: (grant: string): Promise<LoginTokens> =>
    api.post('auth/grant', { auth: false, body: { grant }, schema: loginTokensSchema }),

  /** 501: Google sign-in is not configured on this server. */
  googleUrl: (email?: string): Promise<{ url: string }> =>
    api.get('google/auth-url', {
      auth: false,
      query: { origin: currentOrigin(), email },
      schema: authUrlResponseSchema,
    }),

  /** 501: the email's org has no SSO. */
  ssoAddress: (email: string): Promise<SsoAddressResponse> =>
    api.get('auth/sso', {
      auth: false,
      query: { sso: '1', email, origin: currentOrigin() },
      schema: ssoAddressResponseSchema,
    }),

  /** 409: already a member; 403: the org takes no sign-ups, or the server no new orgs; 400: captcha, public email. */
  signUp: (body: Omit<SignUpBody, 'origin'>): Promise<unknown> =>
    api.post('auth/user', { auth: false, body: { ...body, origin: currentOrigin() }, schema: noContent }),
};

/** Stores the tokens of a completed sign-in (only the token fields: loginUrl is where to go, not a token). */
export function storeSignIn(tokens: LoginTokens): void {
  const { id_token, refresh_token, expires_at, username } = tokens;
  writeTokens({ id_token, refresh_token, expires_at, username });
}
