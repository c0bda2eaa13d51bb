import { Button, Group, Popover, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { okResponseSchema, type TourProgressRequest } from '../../../common/api/users';
import { TOUR_POLL_MS, TOUR_TARGET_WAIT_MS } from '../../../common/limits';
import { api } from '../../api/client';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import { tourCopy } from '../../strings';
import { SETUP_FINISHED_EVENT, isSetupDue } from '../SetupDialog';
import { ONBOARDING_STEPS, ONBOARDING_TOUR, isTourSeen, tourDoneKey, waitForTarget } from './tour';

function storedDone(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

type Box = { top: number; left: number; width: number; height: number };

function boxOf(element: Element): Box {
  const { top, left, width, height } = element.getBoundingClientRect();
  return { top, left, width, height };
}

/** Where the target is on screen, measured again whenever the page scrolls or resizes. */
function useTargetBox(target: Element | null): Box | null {
  const [, setLayoutChanges] = useState(0);
  useEffect(() => {
    if (!target) return;
    const update = () => setLayoutChanges((n) => n + 1);
    window.addEventListener('resize', update);
    window.addEventListener('scroll', update, true);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('scroll', update, true);
    };
  }, [target]);
  return target ? boxOf(target) : null;
}

/**
 * The guided tour (spec §4.5, behind the inAppTour flag): on the homepage, once the setup dialog is out of the way
 * (never due, or just finished), for a user who has not finished or skipped it. A popover points at each target in
 * turn; a target that does not appear within 10 s is passed over. Finishing or skipping is reported to the server
 * and remembered locally.
 */
export function OnboardingTour() {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const doneKey = tourDoneKey(user.userId);
  const [done, setDone] = useState(() => storedDone(doneKey));
  const [setupDue, setSetupDue] = useState(() => isSetupDue(user));
  const [index, setIndex] = useState(0);
  // the target found for a step; a later step's wait starts from none
  const [found, setFound] = useState<{ index: number; element: Element } | null>(null);
  const target = found?.index === index ? found.element : null;
  const box = useTargetBox(target);
  const active = isFlagOn(user, 'inAppTour') && !isTourSeen(user) && !done && !setupDue && pathname === '/';

  useEffect(() => {
    const onSetupFinished = () => setSetupDue(false);
    window.addEventListener(SETUP_FINISHED_EVENT, onSetupFinished);
    return () => window.removeEventListener(SETUP_FINISHED_EVENT, onSetupFinished);
  }, []);

  const end = useCallback(
    (state: TourProgressRequest['state']) => {
      setDone(true);
      try {
        window.localStorage.setItem(doneKey, '1');
      } catch {
        // Storage blocked: the server's record still keeps the tour from showing again.
      }
      const body: TourProgressRequest = { tour_name: ONBOARDING_TOUR, state };
      api
        .patch('users/tour_progress', { body, schema: okResponseSchema })
        .catch((error: unknown) => console.warn('recording the tour progress failed', error));
    },
    [doneKey],
  );

  const next = useCallback(() => {
    if (index + 1 >= ONBOARDING_STEPS.length) end('finished');
    else setIndex(index + 1);
  }, [index, end]);

  useEffect(() => {
    const step = ONBOARDING_STEPS[index];
    if (!active || !step) return;
    const wait = new AbortController();
    void waitForTarget(step, document, {
      timeoutMs: TOUR_TARGET_WAIT_MS,
      pollMs: TOUR_POLL_MS,
      signal: wait.signal,
    }).then((element) => {
      if (wait.signal.aborted) return;
      if (element) setFound({ index, element });
      else next();
    });
    return () => wait.abort();
  }, [active, index, next]);

  const step = ONBOARDING_STEPS[index];
  if (!active || !step || !box) return null;
  const last = index + 1 === ONBOARDING_STEPS.length;
  return (
    <Popover
      opened
      position="bottom"
      withArrow
      shadow="md"
      width={300}
      closeOnClickOutside={false}
      closeOnEscape={false}
      trapFocus={false}
      zIndex={300}
    >
      <Popover.Target>
        <div aria-hidden style={{ position: 'fixed', pointerEvents: 'none', ...box }} />
      </Popover.Target>
      <Popover.Dropdown data-testid="tour-step" data-step={step.id}>
        <Stack gap="xs">
          <Text fw={600}>{tourCopy.steps[step.id].title}</Text>
          <Text size="sm">{tourCopy.steps[step.id].text}</Text>
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {tourCopy.stepOf(index + 1, ONBOARDING_STEPS.length)}
            </Text>
            <Group gap="xs">
              <Button variant="subtle" size="xs" onClick={() => end('skipped')}>
                {tourCopy.SKIP}
              </Button>
              <Button size="xs" onClick={next}>
                {last ? tourCopy.DONE : tourCopy.NEXT}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
