import { LOGIN_RESULT_PARAMS, SIGN_IN_PROVIDERS } from '../../common/api/auth';
import type { SignInProvider } from '../../common/api/auth';
import { isLoginCode } from '../../common/limits';

/**
 * The login screen keeps its stage in the page address (spec §3, page-address state: loginEmail, loginProvider,
 * loginStage, loginCode, redirect), so a reload, the back button, an invite link or the link in a code mail all
 * land on the right stage. The Google and SSO callbacks add their results (common/api/auth LOGIN_RESULT_PARAMS).
 */
export const LOGIN_PARAMS = {
  ...LOGIN_RESULT_PARAMS,
  email: 'loginEmail',
  provider: 'loginProvider',
  stage: 'loginStage',
  code: 'loginCode',
  /** Set when an SSO sign-in was sent to the org's on-prem address (spec §4.1 step 3). */
  customDomainEmail: 'customDomainEmail',
} as const;

/** 0: the email form; 1: the code form. */
export type LoginStage = 0 | 1;
export const CODE_STAGE: LoginStage = 1;

export type LoginState = {
  email: string | null;
  provider: SignInProvider | null;
  stage: LoginStage;
  /** A well-formed code from the address, to submit at once (spec §4.1 step 6). */
  code: string | null;
  redirect: string | null;
  grant: string | null;
  unauthorized: boolean;
  message: string | null;
  error: string | null;
  customDomainEmail: string | null;
};

function isProvider(value: string | null): value is SignInProvider {
  return value !== null && (SIGN_IN_PROVIDERS as readonly string[]).includes(value);
}

export function readLoginState(params: URLSearchParams): LoginState {
  const provider = params.get(LOGIN_PARAMS.provider);
  const rawCode = params.get(LOGIN_PARAMS.code)?.trim() ?? null;
  const code = rawCode && isLoginCode(rawCode) ? rawCode : null;
  return {
    email: params.get(LOGIN_PARAMS.email) || null,
    provider: isProvider(provider) ? provider : null,
    // A code in the address jumps straight to the code stage, whatever loginStage says.
    stage: code || params.get(LOGIN_PARAMS.stage) === String(CODE_STAGE) ? CODE_STAGE : 0,
    code,
    redirect: params.get(LOGIN_PARAMS.redirect) || null,
    grant: params.get(LOGIN_PARAMS.grant) || null,
    unauthorized: params.get(LOGIN_PARAMS.unauthorized) === 'true',
    message: params.get(LOGIN_PARAMS.message) || null,
    error: params.get(LOGIN_PARAMS.error) || null,
    customDomainEmail: params.get(LOGIN_PARAMS.customDomainEmail) || null,
  };
}

/**
 * The query string of a login address. Defaults are left out (stage 0, no provider), and the redirect parameter is
 * always carried along so the visitor still lands where they were going.
 */
export function loginSearch(state: {
  email?: string | null;
  provider?: SignInProvider | null;
  stage?: LoginStage;
  redirect?: string | null;
}): string {
  const params = new URLSearchParams();
  if (state.email) params.set(LOGIN_PARAMS.email, state.email);
  if (state.provider) params.set(LOGIN_PARAMS.provider, state.provider);
  if (state.stage) params.set(LOGIN_PARAMS.stage, String(state.stage));
  if (state.redirect) params.set(LOGIN_PARAMS.redirect, state.redirect);
  const search = params.toString();
  return search ? `?${search}` : '';
}
