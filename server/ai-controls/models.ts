import type { LlmListResponse } from '../../common/api/llms';
import type { DbOrTx } from '../db/store';
import { loadLlmEnvironment } from '../llm/config';
import { anyProviderConfigured, availableModels } from '../llm/registry';
import { loadOrg } from '../orgs/load';

/** The model picker's list for an org on this server (`GET /llms`, and the admin's switches' answer). */
export async function modelListFor(db: DbOrTx, orgId: string): Promise<LlmListResponse> {
  const { org, subscriptions } = await loadOrg(db, orgId);
  const env = loadLlmEnvironment();
  return {
    llms: availableModels(env, { flags: org.flags, preferredLlm: org.preferredLlm, subscriptions }),
    generative: anyProviderConfigured(env),
    webSearch: env.webSearch !== null,
  };
}
