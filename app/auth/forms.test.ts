import { describe, expect, it } from 'vitest';
import { canSignUp } from './forms';

describe('canSignUp (spec §5)', () => {
  const ok = { email: 'fran@newco.test', firstName: 'Fran', lastName: 'Founder' };

  it('needs a well-formed email and two names', () => {
    expect(canSignUp(ok)).toBe(true);
  });

  it('refuses a missing or malformed email', () => {
    expect(canSignUp({ ...ok, email: '' })).toBe(false);
    expect(canSignUp({ ...ok, email: 'fran' })).toBe(false);
    expect(canSignUp({ ...ok, email: 'fran@' })).toBe(false);
  });

  it('refuses names that are blank once trimmed', () => {
    expect(canSignUp({ ...ok, firstName: '   ' })).toBe(false);
    expect(canSignUp({ ...ok, lastName: '' })).toBe(false);
  });
});
