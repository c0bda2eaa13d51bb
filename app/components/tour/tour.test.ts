import { describe, expect, it } from 'vitest';
import { ONBOARDING_STEPS, ONBOARDING_TOUR, isTourSeen, waitForTarget, type TourStep } from './tour';

/** A page whose elements appear over time: `present` is what querySelector finds now. */
function pageWith(present: Set<string>): ParentNode {
  const element = {} as Element;
  return {
    querySelector: (selector: string) => (present.has(selector) ? element : null),
  } as unknown as ParentNode;
}

const step: TourStep = { id: 'queryCards', selector: '#cards', skipWhen: '#message' };
const timing = (signal = new AbortController().signal) => ({ timeoutMs: 200, pollMs: 10, signal });

describe('the onboarding tour', () => {
  it('has the spec’s three steps in order, the query cards skipped while a message is present', () => {
    expect(ONBOARDING_STEPS.map((s) => s.id)).toEqual(['connectApps', 'queryCards', 'questionInput']);
    expect(ONBOARDING_STEPS[1]?.skipWhen).toBeTruthy();
  });

  it('is seen once finished or skipped, not before', () => {
    expect(isTourSeen({ toursProgress: {} })).toBe(false);
    expect(isTourSeen({ toursProgress: { [ONBOARDING_TOUR]: 'not_seen' } })).toBe(false);
    expect(isTourSeen({ toursProgress: { other_tour: 'finished' } })).toBe(false);
    expect(isTourSeen({ toursProgress: { [ONBOARDING_TOUR]: 'finished' } })).toBe(true);
    expect(isTourSeen({ toursProgress: { [ONBOARDING_TOUR]: 'skipped' } })).toBe(true);
  });

  it('waits for a target that appears later, checking every poll', async () => {
    const present = new Set<string>();
    setTimeout(() => present.add('#cards'), 50);
    expect(await waitForTarget(step, pageWith(present), timing())).not.toBeNull();
  });

  it('gives up on a target that never appears, and skips a step whose skip condition holds', async () => {
    const started = Date.now();
    expect(await waitForTarget(step, pageWith(new Set()), timing())).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(await waitForTarget(step, pageWith(new Set(['#cards', '#message'])), timing())).toBeNull();
  });

  it('stops waiting when aborted', async () => {
    const abort = new AbortController();
    const waiting = waitForTarget(step, pageWith(new Set()), { ...timing(abort.signal), timeoutMs: 60_000 });
    abort.abort();
    expect(await waiting).toBeNull();
  });
});
