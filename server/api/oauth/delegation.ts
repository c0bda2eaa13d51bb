/**
 * What the connect dialog shows a Google Workspace admin before an org connection (spec apps-and-connections §5,
 * §7): Google's domain-wide delegation has no consent redirect, so the super admin adds Scout's service account
 * by its client ID, with the app's scopes, in the Admin console themselves (Security → API controls → Domain-wide
 * delegation). Connect then proves the delegation: the install's validate acts as the admin with those scopes and
 * answers the delegation failure if they are not authorised yet.
 */
import type { DelegationResponse } from '../../../common/api/oauth';
import { getApp } from '../../../common/catalogue';
import { configuredServiceAccount } from '../../../connectors/google/service-account';
import { installPayloadOf } from '../../../connectors/sdk';
import { notFound } from '../../errors';
import { notConnectable } from '../../policies/app-connections';
import { getConnector } from '../../sync/registry';

/** The Admin console's page for managing domain-wide delegation. */
export const DELEGATION_ADMIN_CONSOLE_URL = 'https://admin.google.com/ac/owl/domainwidedelegation';

export function delegationOf(appName: string, env: NodeJS.ProcessEnv = process.env): DelegationResponse {
  const app = getApp(appName);
  if (!app) throw notFound('No such app.');
  const connector = getConnector(app.shortname);
  const scopes = connector?.delegatedScopes;
  if (!connector || !scopes || installPayloadOf(connector, true) !== 'marketplace') throw notConnectable();
  const key = configuredServiceAccount(env);
  if (!key) throw notConnectable();
  return { clientId: key.client_id, scopes: [...scopes], adminConsoleUrl: DELEGATION_ADMIN_CONSOLE_URL };
}
