import { describe, expect, it } from 'vitest';
import type { LlmOption, LlmUnavailableReason } from '../../common/api/llms';
import { groupModels } from './model-groups';

const option = (id: string, reasons: LlmUnavailableReason[]): LlmOption => ({
  id,
  name: id,
  provider: 'openai',
  enabled: reasons.length === 0,
  enterpriseOnly: false,
  default: false,
  reason: reasons[0] ?? null,
  reasons,
});

describe('groupModels', () => {
  it('offers an upgrade only for models the server could then run and the workspace has not turned off', () => {
    const groups = groupModels([
      option('usable', []),
      option('plan', ['PLAN_REQUIRED']),
      option('plan-and-key', ['PLAN_REQUIRED', 'NOT_CONFIGURED']),
      option('plan-and-off', ['PLAN_REQUIRED', 'DISABLED_FOR_ORG']),
      option('off-and-key', ['DISABLED_FOR_ORG', 'NOT_CONFIGURED']),
    ]);
    const ids = (list: LlmOption[]) => list.map((model) => model.id);
    expect(ids(groups.usable)).toEqual(['usable']);
    expect(ids(groups.upgrade)).toEqual(['plan']);
    expect(ids(groups.turnedOff)).toEqual(['plan-and-off']);
    expect(ids(groups.needsKey)).toEqual(['plan-and-key', 'off-and-key']);
  });
});
