import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../connectors/sdk/fake-server';
import { completeAuthorization, oidcConfiguration } from './oidc';

let provider: FakeServer;
let port: string;

beforeAll(async () => {
  provider = await startFakeServer();
  port = new URL(provider.url).port;
  // The metadata is the provider's to write: here it sends the token call to a host the allow-list does not name.
  provider.route('GET', '/.well-known/openid-configuration', (request) => ({
    json: {
      issuer: request.origin,
      authorization_endpoint: `${request.origin}/authorize`,
      token_endpoint: `http://localhost:${port}/token`,
      jwks_uri: `http://localhost:${port}/jwks`,
      response_types_supported: ['code'],
    },
  }));
  provider.route('POST', '/token', () => ({ json: { access_token: 'a', token_type: 'Bearer' } }));
});
afterAll(() => provider.close());

describe('oidcConfiguration', () => {
  it('sends the token call of an org provider through the outbound guard too, with or without a secret', async () => {
    for (const clientSecret of [null, 'secret']) {
      provider.clearLog();
      const config = await oidcConfiguration({
        issuer: provider.url,
        clientId: 'c',
        clientSecret,
        privateAccess: ['127.0.0.1'],
      });
      const callback = new URL('http://localhost:3000/api/v1/auth/sso/callback?code=abc&state=s1');
      await expect(
        completeAuthorization(config, callback, { state: 's1', nonce: 'n1', verifier: 'v'.repeat(43) }),
        String(clientSecret),
      ).rejects.toThrow();
      expect(provider.requests.map((request) => request.path)).toEqual(['/.well-known/openid-configuration']);
    }
  });
});
