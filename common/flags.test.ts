import { describe, it, expect } from 'vitest';
import { DEFAULT_FLAGS, isModelDisabled, modelDisabledFlag, parseFlagAssignments, parseFlags } from './flags';

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

describe('parseFlagAssignments', () => {
  const models = ['deepseek-r1'];

  it('reads switches, the numeric threshold and per-model flags', () => {
    expect(
      parseFlagAssignments(
        ['multiplayerEnabled=on', 'notifications=TRUE', 'answers=off', 'fileTypeFilterNoticeThreshold=9'],
        models,
      ),
    ).toEqual({
      flags: {
        multiplayerEnabled: true,
        notifications: true,
        answers: false,
        fileTypeFilterNoticeThreshold: 9,
      },
    });
    expect(parseFlagAssignments([`${modelDisabledFlag('deepseek-r1')}=on`], models)).toEqual({
      flags: { 'disableModel:deepseek-r1': true },
    });
  });

  it('refuses unknown names, bad values and missing values', () => {
    expect(parseFlagAssignments(['multiplayer=on'], models)).toEqual({
      error: "'multiplayer' is not a flag",
    });
    expect(parseFlagAssignments(['toString=on'], models)).toEqual({ error: "'toString' is not a flag" });
    expect(parseFlagAssignments(['disableModel:gpt-9=on'], models)).toHaveProperty('error');
    expect(parseFlagAssignments(['answers=yes'], models)).toEqual({ error: 'answers takes on or off' });
    expect(parseFlagAssignments(['answers'], models)).toEqual({ error: "'answers' is not name=value" });
    expect(parseFlagAssignments(['fileTypeFilterNoticeThreshold=-1'], models)).toHaveProperty('error');
    expect(parseFlagAssignments(['fileTypeFilterNoticeThreshold=1.5'], models)).toHaveProperty('error');
    expect(parseFlagAssignments(['fileTypeFilterNoticeThreshold='], models)).toHaveProperty('error');
  });
});
