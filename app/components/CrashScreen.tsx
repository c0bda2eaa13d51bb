import { useEffect, useState } from 'react';
import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRepeatCrash, newTraceId, retryUrl } from '../crash';
import { shell } from '../../common/strings';

interface CrashScreenProps {
  error: unknown;
}

/**
 * What the user sees when rendering fails (spec shell-and-account §2.3). It reads window.location, not
 * the router, because the top-level boundary renders it outside the router.
 */
export function CrashScreen({ error }: CrashScreenProps) {
  const [traceId] = useState(newTraceId);
  const repeat = isRepeatCrash(window.location.search);

  useEffect(() => {
    console.error(`Scout crashed (trace id ${traceId})`, error);
  }, [traceId, error]);

  // A full page load, not a router navigation: whatever state crashed must be thrown away.
  const onClick = () => window.location.assign(repeat ? '/' : retryUrl(window.location.href));

  return (
    <Center h="100vh" p="md" data-testid="crash-screen">
      <Stack align="center" gap="sm">
        <Title order={2}>{shell.CRASH_TITLE}</Title>
        <Text c="dimmed">{shell.CRASH_SUBTITLE}</Text>
        <Text size="sm">
          Trace ID: <Code data-testid="trace-id">{traceId}</Code>
        </Text>
        <Button onClick={onClick} mt="sm">
          {repeat ? shell.GO_TO_HOMEPAGE : shell.TRY_AGAIN}
        </Button>
      </Stack>
    </Center>
  );
}
