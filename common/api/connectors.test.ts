import { describe, expect, it } from 'vitest';
import { INSTALL_PAYLOAD_KINDS, INSTALL_PAYLOAD_SCHEMAS } from './connectors';

describe('install payloads', () => {
  it('has a schema for every kind of spec §7', () => {
    expect(Object.keys(INSTALL_PAYLOAD_SCHEMAS).sort()).toEqual([...INSTALL_PAYLOAD_KINDS].sort());
  });

  it('refuses a blank credential, as the connect dialog does', () => {
    expect(INSTALL_PAYLOAD_SCHEMAS.apiKey.safeParse({ api_key: '   ' }).success).toBe(false);
    expect(INSTALL_PAYLOAD_SCHEMAS.apiKey.parse({ api_key: ' k ', subdomain: 'acme' })).toEqual({
      api_key: 'k',
      subdomain: 'acme',
    });
  });

  it('takes a Stack Overflow team slug or a custom domain, not both, and drops a trailing slash', () => {
    const schema = INSTALL_PAYLOAD_SCHEMAS.stackOverflowTeams;
    const base = { api_key: 'k', email: 'ada@example.com' };
    expect(schema.parse({ ...base, custom_domain: 'so.acme.com/' }).custom_domain).toBe('so.acme.com');
    expect(schema.safeParse({ ...base, team_slug: 'acme' }).success).toBe(true);
    expect(schema.safeParse(base).success).toBe(false);
    expect(schema.safeParse({ ...base, team_slug: 'acme', custom_domain: 'so.acme.com' }).success).toBe(
      false,
    );
  });

  it('uses the spec’s messages for a website URL and a custom API name', () => {
    const website = INSTALL_PAYLOAD_SCHEMAS.website.safeParse({ url: 'not a url', site_id: 's1' });
    expect(website.error?.issues[0]?.message).toBe('Please enter a valid URL.');
    const custom = INSTALL_PAYLOAD_SCHEMAS.customApi.safeParse({ connection_name: ' ', connection_id: 'c1' });
    expect(custom.error?.issues[0]?.message).toBe('Please enter a unique connection name.');
    expect(
      INSTALL_PAYLOAD_SCHEMAS.marketplace.safeParse({ email: 'ada@example.com', marketplace: false }).success,
    ).toBe(false);
  });
});
