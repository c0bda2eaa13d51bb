import type { LlmOption } from '../../common/api/llms';

/**
 * The picker's groups: what the member can use now first, then what an upgrade would unlock, then what the
 * workspace turned off, then what this server cannot run at all. A model lands in the group of the obstacle that
 * would remain after the others: an upgrade does not run a model without a key, so that one is "needs a key".
 */
export type ModelGroups = {
  usable: LlmOption[];
  upgrade: LlmOption[];
  turnedOff: LlmOption[];
  needsKey: LlmOption[];
};

export function groupModels(options: readonly LlmOption[]): ModelGroups {
  const groups: ModelGroups = { usable: [], upgrade: [], turnedOff: [], needsKey: [] };
  for (const option of options) {
    if (option.enabled) groups.usable.push(option);
    else if (option.reasons.includes('NOT_CONFIGURED')) groups.needsKey.push(option);
    else if (option.reasons.includes('DISABLED_FOR_ORG')) groups.turnedOff.push(option);
    else groups.upgrade.push(option);
  }
  return groups;
}
