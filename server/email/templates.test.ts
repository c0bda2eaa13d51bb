import { describe, expect, it } from 'vitest';
import { loginCodeMail } from './templates';

describe('loginCodeMail', () => {
  const mail = loginCodeMail({
    to: 'ann+x@acme.test',
    code: 'ABCDE-FGHJK-LMNPQ-RSTUV',
    publicUrl: 'https://scout.acme.test',
    purpose: 'LOGIN',
  });

  it('carries the code and a link to the code stage of the login page', () => {
    expect(mail.subject).toContain('ABCDE-FGHJK-LMNPQ-RSTUV');
    const link = new URL(/https:\/\/\S+/.exec(mail.text)?.[0] ?? '');
    expect(link.origin + link.pathname).toBe('https://scout.acme.test/login');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      loginCode: 'ABCDE-FGHJK-LMNPQ-RSTUV',
      loginEmail: 'ann+x@acme.test',
      loginProvider: 'email',
      loginStage: '1',
    });
    expect(mail.html).toContain('loginEmail=ann%2Bx%40acme.test');
  });

  it('names the recipient and the code in the log line used without SMTP', () => {
    expect(mail.logLine).toMatch(/^login code for ann\+x@acme\.test: ABCDE-FGHJK-LMNPQ-RSTUV/);
  });
});
