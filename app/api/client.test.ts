import { describe, expect, it } from 'vitest';
import { TOKEN_REFRESH_WINDOW_MS } from '../../common/limits';
import { isRefreshDue } from './client';

describe('isRefreshDue (spec §4.4, §9: under 1,200,000 ms left)', () => {
  const now = 1_000_000_000;

  it('is due with less than 20 minutes left, or past expiry', () => {
    expect(isRefreshDue({ expires_at: now + TOKEN_REFRESH_WINDOW_MS - 1 }, now)).toBe(true);
    expect(isRefreshDue({ expires_at: now - 1 }, now)).toBe(true);
  });

  it('is not due with 20 minutes or more left', () => {
    expect(isRefreshDue({ expires_at: now + TOKEN_REFRESH_WINDOW_MS }, now)).toBe(false);
    expect(isRefreshDue({ expires_at: now + 60 * 60_000 }, now)).toBe(false);
  });
});
