import { describe, expect, it } from 'vitest';
import { loginSearch, readLoginState } from './login-params';

const read = (search: string) => readLoginState(new URLSearchParams(search));

describe('readLoginState', () => {
  it('starts at the email stage with nothing known', () => {
    expect(read('')).toMatchObject({ email: null, provider: null, stage: 0, code: null, redirect: null });
  });

  it('reads the stage, email, provider and redirect of the address', () => {
    const state = read('loginEmail=a%40b.test&loginProvider=email&loginStage=1&redirect=%2Fchat%3Fx%3D1');
    expect(state).toMatchObject({ email: 'a@b.test', provider: 'email', stage: 1, redirect: '/chat?x=1' });
  });

  it('ignores an unknown provider and an unknown stage', () => {
    expect(read('loginEmail=a%40b.test&loginProvider=okta&loginStage=7')).toMatchObject({
      provider: null,
      stage: 0,
    });
  });

  it('jumps to the code stage for a well-formed code, whatever loginStage says (spec §4.1 step 6)', () => {
    expect(read('loginCode=ABCDE-FGHJK-LMNPQ-RSTUV')).toMatchObject({
      stage: 1,
      code: 'ABCDE-FGHJK-LMNPQ-RSTUV',
    });
    expect(read('loginCode=abcde-12345-ABCDE-x_y_z&loginStage=0')).toMatchObject({ stage: 1 });
  });

  it('does not take a malformed code', () => {
    expect(read('loginCode=ABCDE-FGHJK')).toMatchObject({ stage: 0, code: null });
    expect(read('loginCode=ABCDE-FGHJK-LMNPQ-RSTU!')).toMatchObject({ stage: 0, code: null });
  });

  it('reads the results the identity-provider callbacks leave', () => {
    expect(read('loginGrant=g1&redirect=%2Fbots')).toMatchObject({ grant: 'g1', redirect: '/bots' });
    expect(read('unauthorized=true&message=No%20account')).toMatchObject({
      unauthorized: true,
      message: 'No account',
    });
    expect(read('unauthorized=1')).toMatchObject({ unauthorized: false });
    expect(read('err=Nope')).toMatchObject({ error: 'Nope' });
  });
});

describe('loginSearch', () => {
  it('leaves defaults out of the address (spec §3)', () => {
    expect(loginSearch({})).toBe('');
    expect(loginSearch({ stage: 0, provider: null, email: '' })).toBe('');
  });

  it('writes what is known and always keeps the redirect', () => {
    const search = loginSearch({ email: 'a@b.test', provider: 'email', stage: 1, redirect: '/chat?x=1' });
    expect(Object.fromEntries(new URLSearchParams(search))).toEqual({
      loginEmail: 'a@b.test',
      loginProvider: 'email',
      loginStage: '1',
      redirect: '/chat?x=1',
    });
  });

  it('round-trips through readLoginState', () => {
    const state = { email: 'a@b.test', provider: 'sso' as const, stage: 0 as const, redirect: '/x' };
    expect(read(loginSearch(state).slice(1))).toMatchObject(state);
  });
});
