// The guided onboarding tour (spec shell-and-account §4.5): which targets it shows in turn, how it waits for them,
// and whether this user has seen it.
import type { CurrentUser } from '../../../common/api/session';
import type { TourProgressRequest } from '../../../common/api/users';

/** The tour's name in `PATCH /users/tour_progress` and the user's toursProgress. */
export const ONBOARDING_TOUR = 'onboarding_tour';

export type TourStepId = 'connectApps' | 'queryCards' | 'questionInput';

export type TourStep = {
  id: TourStepId;
  /** The element the step points at, found by the test id its screen already gives it. */
  selector: string;
  /** The step is skipped while this is on the page. */
  skipWhen?: string;
};

/**
 * Spec §4.5: the connect-apps button, the recommended query cards (skipped if a message is already present), the
 * question input. The homepage's apps strip holds 'Connect more apps'.
 */
export const ONBOARDING_STEPS: readonly TourStep[] = [
  { id: 'connectApps', selector: '[data-testid="apps-strip"]' },
  {
    id: 'queryCards',
    selector: '[data-testid="workflow-chips"]',
    skipWhen: '[data-testid="user-message"], [data-testid="assistant-message"]',
  },
  { id: 'questionInput', selector: '[data-testid="question-textarea"]' },
];

/** Local-storage key remembering that this user finished or skipped the tour (spec §4.5). */
export const tourDoneKey = (userId: string) => `scout.tour.${ONBOARDING_TOUR}.${userId}`;

/** Seen: finished or skipped, as the server recorded it. not_seen (or nothing) is not seen. */
export function isTourSeen(user: Pick<CurrentUser, 'toursProgress'>): boolean {
  const state = user.toursProgress[ONBOARDING_TOUR];
  const seen: readonly unknown[] = ['finished', 'skipped'] satisfies TourProgressRequest['state'][];
  return seen.includes(state);
}

/**
 * The step's target once it is on the page, checking every `pollMs` for up to `timeoutMs` (spec §9: 500 ms, 10 s);
 * null when it never came, the step is to be skipped, or `signal` ended the wait.
 */
export function waitForTarget(
  step: TourStep,
  root: ParentNode,
  { timeoutMs, pollMs, signal }: { timeoutMs: number; pollMs: number; signal: AbortSignal },
): Promise<Element | null> {
  return new Promise((resolve) => {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (found: Element | null) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(found);
    };
    const onAbort = () => stop(null);
    const look = () => {
      if (step.skipWhen && root.querySelector(step.skipWhen)) return stop(null);
      const found = root.querySelector(step.selector);
      if (found) return stop(found);
      if (Date.now() - started >= timeoutMs) return stop(null);
      timer = setTimeout(look, pollMs);
    };
    if (signal.aborted) return resolve(null);
    signal.addEventListener('abort', onAbort);
    look();
  });
}
