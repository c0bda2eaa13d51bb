import { Center, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface AuthLayoutProps {
  children: ReactNode;
}

/** Frame shared by /login and /signup: a centred card and the terms acknowledgement (spec §2.4). */
export function AuthLayout({ children }: AuthLayoutProps) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" w={420} maw="100%">
        <Stack gap="md">
          {children}
          <Text size="xs" c="dimmed" ta="center">
            By continuing, you acknowledge Scout&apos;s Terms of Service and Privacy Policy.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
