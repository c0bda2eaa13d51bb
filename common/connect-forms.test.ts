import { describe, expect, it } from 'vitest';
import { APPS, getApp } from './catalogue';
import {
  addsThroughMenu,
  connectFormCopy,
  connectFormOf,
  connectMenuLabels,
  connectRequestOf,
  installFailureMessage,
  isConnectFormFilled,
} from './connect-forms';

const app = (name: string) => {
  const found = getApp(name);
  if (!found) throw new Error(name);
  return found;
};
let counter = 0;
const newId = () => `id-${++counter}`;

describe('connect dialogs', () => {
  it('gives every catalogue app numbered instructions and the privacy note, for both kinds', () => {
    for (const definition of APPS) {
      for (const isOrg of [true, false]) {
        const form = connectFormOf(definition, isOrg, 'acme.test');
        expect(form.instructions.length, definition.shortname).toBeGreaterThan(0);
        if (definition.shortname !== 'custom-api')
          expect(form.requirements.join(' '), definition.shortname).toContain(definition.displayName);
        expect(new Set(form.fields.map((f) => f.key)).size).toBe(form.fields.length);
      }
    }
  });

  it('builds the website body with a generated site_id, and refuses a bad URL with the spec message', () => {
    const form = connectFormOf(app('website'), true, 'acme.test');
    expect(form.fields.map((f) => f.key)).toEqual(['url']);
    expect(isConnectFormFilled(form, { url: '   ' })).toBe(false);
    expect(isConnectFormFilled(form, { url: 'https://docs.acme.test' })).toBe(true);
    expect(connectRequestOf(form, { url: 'not a url' }, true, newId)).toEqual({
      ok: false,
      message: 'Please enter a valid URL.',
    });
    const request = connectRequestOf(form, { url: ' https://docs.acme.test/ ' }, true, newId);
    expect(request).toEqual({
      ok: true,
      body: {
        isOrg: true,
        credentials: {},
        options: { url: 'https://docs.acme.test/', site_id: expect.any(String) },
      },
    });
    expect(installFailureMessage(form, 'Website')).toBe(
      'Failed to install Website, please verify the provided URL',
    );
  });

  it('waits for the Google Sites archive upload, then installs under the site id it was uploaded with', () => {
    const form = connectFormOf(app('gsites'), true, 'acme.test');
    expect(form.fields.map((f) => [f.key, f.input])).toEqual([
      ['url', 'url'],
      ['archive', 'archive'],
    ]);
    expect(form.requirements).toContain(connectFormCopy.DIRECT_INSTALL);
    const url = 'https://sites.google.com/view/acme';
    // Connect stays disabled until the archive has finished uploading (its stored id is the field's value).
    expect(isConnectFormFilled(form, { url })).toBe(false);
    expect(isConnectFormFilled(form, { url, archive: '' })).toBe(false);
    expect(isConnectFormFilled(form, { url, archive: 'upload-1' })).toBe(true);
    const siteId = 'f00dfeed';
    const request = connectRequestOf(form, { url, archive: 'upload-1' }, true, () => siteId);
    expect(request).toEqual({
      ok: true,
      body: { isOrg: true, credentials: {}, options: { url, site_id: siteId } },
    });
    expect(connectRequestOf(form, { url: 'nope', archive: 'upload-1' }, true, () => siteId)).toEqual({
      ok: false,
      message: 'Please enter a valid URL.',
    });
    expect(installFailureMessage(form, 'Google Sites')).toBe(
      'Failed to install Google Sites, please verify the provided URL',
    );
  });

  it('asks a custom API for a name and an optional icon, within 5 MB', () => {
    const form = connectFormOf(app('custom-api'), true, 'acme.test');
    expect(form.fields.map((f) => [f.key, f.optional ?? false])).toEqual([
      ['connection_name', false],
      ['icon', true],
    ]);
    expect(isConnectFormFilled(form, { connection_name: 'CRM' })).toBe(true);
    const icon = 'data:image/png;base64,iVBORw0KGgo=';
    const request = connectRequestOf(form, { connection_name: ' CRM ', icon }, true, newId);
    expect(request).toEqual({
      ok: true,
      body: {
        isOrg: true,
        credentials: {},
        options: { connection_name: 'CRM', icon, connection_id: expect.any(String) },
      },
    });
    const huge = `data:image/png;base64,${'A'.repeat(Math.ceil((5242880 + 3) / 3) * 4)}`;
    expect(connectRequestOf(form, { connection_name: 'CRM', icon: huge }, true, newId)).toEqual({
      ok: false,
      message: 'The icon must be 5 MB or smaller.',
    });
  });

  it('keeps Connect disabled until every credential is filled, and sends secrets as credentials', () => {
    const form = connectFormOf(app('highspot'), false, 'acme.test');
    expect(form.fields.map((f) => [f.key, f.secret])).toEqual([
      ['api_key', true],
      ['api_secret', true],
    ]);
    expect(isConnectFormFilled(form, { api_key: 'k' })).toBe(false);
    expect(isConnectFormFilled(form, { api_key: 'k', api_secret: ' ' })).toBe(false);
    const request = connectRequestOf(form, { api_key: ' k ', api_secret: 's' }, false, newId);
    expect(request).toEqual({
      ok: true,
      body: { isOrg: false, credentials: { api_key: 'k', api_secret: 's' }, options: {} },
    });
    expect(form.credentialName).toBe('API key');
    expect(installFailureMessage(form, 'Highspot')).toBe(
      'Failed to install Highspot, please verify the provided credentials',
    );
  });

  it('asks for a subdomain where the spec requires one, and ServiceNow for its client too', () => {
    for (const name of ['jira', 'confluence', 'zendesk', 'monday'])
      expect(connectFormOf(app(name), true, 'acme.test').fields.map((f) => f.key)).toEqual(['subdomain']);
    const servicenow = connectFormOf(app('servicenow'), true, 'acme.test');
    expect(servicenow.fields.map((f) => f.key)).toEqual(['subdomain', 'clientId', 'clientSecret']);
    expect(servicenow.requirements).toContain(
      'ServiceNow needs the plugins com.sn_customerservice and sn_km_api.',
    );
    expect(connectFormOf(app('slack'), true, 'acme.test').fields).toEqual([]);
  });

  it('takes a team slug or a custom domain for Stack Overflow for Teams, the domain only individually', () => {
    const individual = connectFormOf(app('stackoverflowteams'), false, 'acme.test');
    const base = { api_key: 'k', email: 'me@acme.test' };
    expect(isConnectFormFilled(individual, base)).toBe(false);
    expect(isConnectFormFilled(individual, { ...base, custom_domain: 'so.acme.test/' })).toBe(true);
    const request = connectRequestOf(individual, { ...base, custom_domain: 'so.acme.test/' }, false, newId);
    expect(request.ok && request.body.options.custom_domain).toBe('so.acme.test/');
    expect(
      connectFormOf(app('stackoverflowteams'), true, 'acme.test').fields.map((f) => f.key),
    ).not.toContain('custom_domain');
  });

  it('sends marketplace org connects with the email and marketplace true', () => {
    const form = connectFormOf(app('gdrive'), true, 'acme.test');
    expect(form.payload).toBe('marketplace');
    const request = connectRequestOf(form, { email: 'admin@acme.test' }, true, newId);
    expect(request).toEqual({
      ok: true,
      body: { isOrg: true, credentials: {}, options: { email: 'admin@acme.test', marketplace: true } },
    });
    expect(connectFormOf(app('gdrive'), false, 'acme.test').payload).toBe('oauth');
  });

  it('gets org-wide access first: Microsoft by the admin-consent popup, Google by domain-wide delegation', () => {
    expect(connectFormOf(app('sharepoint'), true, 'acme.test').consent).toBe('microsoftAdminConsent');
    expect(connectFormOf(app('outlook'), true, 'acme.test').consent).toBe('microsoftAdminConsent');
    expect(connectFormOf(app('gmail'), true, 'acme.test').consent).toBe('googleDelegation');
    expect(connectFormOf(app('gmail'), false, 'acme.test').consent).toBeUndefined();
    expect(connectFormOf(app('slack'), true, 'acme.test').consent).toBeUndefined();
  });

  it('lists the requirement notes of §5 and §6', () => {
    expect(connectFormOf(app('github'), true, 'a.test').requirements).toContain(
      'Org connections need a GitHub Enterprise plan with SAML single sign-on.',
    );
    expect(connectFormOf(app('github'), false, 'a.test').requirements.join()).not.toContain('SAML');
    expect(connectFormOf(app('slack'), true, 'a.test').requirements).toContain(
      'The connecting user must be a Workspace Admin in Slack.',
    );
    expect(connectFormOf(app('bitbucket'), true, 'a.test').requirements.join()).toContain('Code search');
    expect(connectFormOf(app('gworkspace-directory'), true, 'a.test').requirements).toContain(
      'The connecting user must be a Google Workspace admin in Google Workspace Directory.',
    );
  });

  it('names the menu entries, GitLab its own way, and skips the menu for managed apps', () => {
    expect(connectMenuLabels(app('slack'))).toEqual({
      org: 'Org connection',
      individual: 'Individual connection',
    });
    expect(connectMenuLabels(app('gitlab'))).toEqual({
      org: 'Org connection (Self-Managed)',
      individual: 'Individual connection (gitlab.com)',
    });
    expect(addsThroughMenu(app('website'))).toBe(false);
    expect(addsThroughMenu(app('bamboo_hr'))).toBe(false);
    expect(addsThroughMenu(app('slack'))).toBe(true);
  });
});
