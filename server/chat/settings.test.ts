import { expect, it } from 'vitest';
import { DEFAULT_CHAT_SETTINGS, loadChatSettings } from './settings';

it('reads the operator’s timings, keeps the defaults for the rest, and names a bad variable', () => {
  expect(loadChatSettings({})).toEqual(DEFAULT_CHAT_SETTINGS);
  expect(loadChatSettings({ CHAT_REWRITE_TIMEOUT_MS: '750' })).toEqual({
    ...DEFAULT_CHAT_SETTINGS,
    rewriteTimeoutMs: 750,
  });
  expect(() => loadChatSettings({ CHAT_REWRITE_TIMEOUT_MS: '5' })).toThrow(
    /^Invalid CHAT_REWRITE_TIMEOUT_MS:/,
  );
  expect(() => loadChatSettings({ CHAT_STAGE_REPEAT_MS: 'soon' })).toThrow(/^Invalid CHAT_STAGE_REPEAT_MS:/);
});
