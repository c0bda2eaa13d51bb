import { describe, it, expect } from 'vitest';
import { DEFAULT_FLAGS, isModelDisabled, modelDisabledFlag, parseFlags } from './flags';

describe('flags', () => {
  it('defaults every flag off and the file-type notice threshold to 6', () => {
    const { fileTypeFilterNoticeThreshold, ...booleans } = DEFAULT_FLAGS;
    expect(fileTypeFilterNoticeThreshold).toBe(6);
    expect(Object.keys(booleans).length).toBeGreaterThanOrEqual(21);
    for (const [name, value] of Object.entries(booleans)) expect(value, name).toBe(false);
  });

  it('fills missing flags, keeps unknown ones and falls back on malformed input', () => {
    const flags = parseFlags({ answers: true, [modelDisabledFlag('deepseek-r1')]: true });
    expect(flags.answers).toBe(true);
    expect(flags.multiplayerEnabled).toBe(false);
    expect(isModelDisabled(flags, 'deepseek-r1')).toBe(true);
    expect(isModelDisabled(flags, 'xai-grok-2')).toBe(false);
    expect(parseFlags({ answers: 'yes' })).toEqual(DEFAULT_FLAGS);
    expect(parseFlags(undefined)).toEqual(DEFAULT_FLAGS);
  });
});
