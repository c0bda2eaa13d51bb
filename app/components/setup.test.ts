import { describe, expect, it } from 'vitest';
import { canFinishSetup, isFirstAdmin } from './setup';
import type { SetupAnswers } from './setup';
import { aCurrentUser } from '../testing';

const answers: SetupAnswers = {
  workRole: 'engineering',
  referral: 'newsletter',
  referralOther: '',
  companyName: 'Acme',
  logo: null,
  invites: [],
};

describe('canFinishSetup (spec §5)', () => {
  it('needs both choices', () => {
    expect(canFinishSetup(answers, false)).toBe(true);
    expect(canFinishSetup({ ...answers, workRole: null }, false)).toBe(false);
    expect(canFinishSetup({ ...answers, referral: null }, false)).toBe(false);
  });

  it("needs words behind 'other'", () => {
    expect(canFinishSetup({ ...answers, referral: 'other', referralOther: '  ' }, false)).toBe(false);
    expect(canFinishSetup({ ...answers, referral: 'other', referralOther: 'A friend' }, false)).toBe(true);
  });

  it('needs a company name from the first admin only', () => {
    expect(canFinishSetup({ ...answers, companyName: ' ' }, true)).toBe(false);
    expect(canFinishSetup({ ...answers, companyName: ' ' }, false)).toBe(true);
  });
});

describe('isFirstAdmin (spec §6)', () => {
  const user = (admin: boolean, firstAdmin: boolean, setUp: boolean) =>
    aCurrentUser({
      admin,
      onboardingState: firstAdmin ? { first_admin: true } : {},
      org: { isWorkspaceSetup: setUp },
    });

  it('is the admin who created the workspace, or any admin of a workspace not set up', () => {
    expect(isFirstAdmin(user(true, true, true))).toBe(true);
    expect(isFirstAdmin(user(true, false, false))).toBe(true);
    expect(isFirstAdmin(user(true, false, true))).toBe(false);
    expect(isFirstAdmin(user(false, true, false))).toBe(false);
  });
});
