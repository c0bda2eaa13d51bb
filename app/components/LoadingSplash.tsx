import { useEffect, useState } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { LOADING_FAILED_MS, LOADING_STILL_MS } from '../../common/limits';
import { shell } from '../../common/strings';

type Stage = 'loading' | 'slow' | 'failed';

interface LoadingSplashProps {
  /** The load already failed for good: show the failure text without waiting for the 50 s mark. */
  failed?: boolean;
}

/** Full-screen splash while the session loads (spec shell-and-account §2.3). */
export function LoadingSplash({ failed = false }: LoadingSplashProps) {
  const [stage, setStage] = useState<Stage>('loading');

  useEffect(() => {
    const slow = setTimeout(() => setStage('slow'), LOADING_STILL_MS);
    const gaveUp = setTimeout(() => setStage('failed'), LOADING_FAILED_MS);
    return () => {
      clearTimeout(slow);
      clearTimeout(gaveUp);
    };
  }, []);

  const shown: Stage = failed ? 'failed' : stage;
  return (
    <Center h="100vh" p="md" data-testid="loading-splash">
      <Stack align="center" gap="sm" maw={420}>
        {shown !== 'failed' && <Loader size="md" />}
        <Text ta="center" c={shown === 'failed' ? 'red' : 'dimmed'} role="status">
          {shown === 'loading'
            ? shell.LOADING
            : shown === 'slow'
              ? shell.STILL_LOADING
              : shell.LOADING_FAILED}
        </Text>
      </Stack>
    </Center>
  );
}
