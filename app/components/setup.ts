import type { CurrentUser } from '../../common/api/session';
import type { REFERRAL_SOURCES, WORK_ROLES } from '../../common/api/users';
import type { InviteEntry } from './invite/invite-list';

export type WorkRole = (typeof WORK_ROLES)[number];
export type ReferralSource = (typeof REFERRAL_SOURCES)[number];

/** Spec §6: the first admin also names the company, gives its logo and invites the team. */
export function isFirstAdmin(user: CurrentUser): boolean {
  return user.admin && (user.onboardingState.first_admin === true || !user.org.isWorkspaceSetup);
}

export type SetupAnswers = {
  workRole: WorkRole | null;
  referral: ReferralSource | null;
  referralOther: string;
  companyName: string;
  logo: string | null;
  invites: InviteEntry[];
};

/** Spec §5: Done waits for both choices, the words behind 'other', and (first admin) a company name. */
export function canFinishSetup(answers: SetupAnswers, firstAdmin: boolean): boolean {
  if (!answers.workRole || !answers.referral) return false;
  if (answers.referral === 'other' && answers.referralOther.trim() === '') return false;
  return !firstAdmin || answers.companyName.trim() !== '';
}
