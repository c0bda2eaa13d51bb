// Google's side of OAuth for the Gmail and Calendar fakes: the bearer check every API route makes (answering 401 in
// Google's error shape), access tokens that can be made to lapse, and the token endpoint's refresh grant that
// issues the next one. Tests point the connector's tokenUrl at `<fake>/token`.
import type { FakeHandler, FakeResponse, FakeServer } from '../sdk/fake-server';

export interface FakeGoogleAuth {
  readonly refreshToken: string;
  /** The access token the API accepts now. */
  accessToken(): string;
  /** The current access token stops working; the token endpoint hands out the next one. */
  lapse(): void;
  /** The access token lapses once `requests` more API requests have been answered. */
  lapseAfter(requests: number): void;
  /** Wraps an API route with the bearer check. */
  authorized(handler: FakeHandler): FakeHandler;
}

/** Google's JSON error answer. */
export function googleError(code: number, status: string, reason: string, message: string): FakeResponse {
  return {
    status: code,
    json: { error: { code, message, status, errors: [{ message, domain: 'global', reason }] } },
  };
}

export function fakeGoogleAuth(
  server: FakeServer,
  options: { prefix: string; scope: string; tokenLifetimeSeconds?: number },
): FakeGoogleAuth {
  const refreshToken = `${options.prefix}-refresh-7c1e9a`;
  let serial = 1;
  const accessToken = () => `${options.prefix}-access-${serial}-3b8f`;
  let lapsed = false;
  let answeredUntilLapse: number | null = null;

  // RFC 6749 refresh grant, client_secret_post, as Google's token endpoint takes it.
  server.route('POST', '/token', (request) => {
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== refreshToken)
      return {
        status: 400,
        json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
      };
    if (lapsed) {
      serial += 1;
      lapsed = false;
    }
    return {
      json: {
        access_token: accessToken(),
        expires_in: options.tokenLifetimeSeconds ?? 3599,
        token_type: 'Bearer',
        scope: options.scope,
      },
    };
  });

  return {
    refreshToken,
    accessToken,
    lapse() {
      lapsed = true;
    },
    lapseAfter(requests) {
      answeredUntilLapse = requests;
    },
    authorized: (handler) => (request) => {
      if (answeredUntilLapse !== null && answeredUntilLapse <= 0) {
        answeredUntilLapse = null;
        lapsed = true;
      }
      if (request.headers.authorization !== `Bearer ${accessToken()}` || lapsed)
        return googleError(
          401,
          'UNAUTHENTICATED',
          'authError',
          'Request had invalid authentication credentials.',
        );
      if (answeredUntilLapse !== null) answeredUntilLapse -= 1;
      return handler(request);
    },
  };
}
