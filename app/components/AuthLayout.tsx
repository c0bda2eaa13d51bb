import { Box, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../common/strings';
import { loginCopy } from '../strings';
import { AuthCarousel } from './AuthCarousel';

interface AuthLayoutProps {
  children: ReactNode;
}

/**
 * Frame shared by /login and /signup (spec §2.4): the form with the terms acknowledgement, and on wide screens
 * the rotating carousel beside it.
 */
export function AuthLayout({ children }: AuthLayoutProps) {
  return (
    <Box mih="100vh" style={{ display: 'flex' }}>
      {/* miw 0: the form's column may shrink below its 400 px on a phone instead of pushing the page sideways */}
      <Center flex={1} miw={0} p="xl" bg="white">
        <Stack w={400} maw="100%" gap="xl">
          <Group gap="xs">
            <ThemeIcon size="lg" radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'violet' }}>
              <IconSparkles size={20} />
            </ThemeIcon>
            <Text fw={700} size="xl">
              {PRODUCT_NAME}
            </Text>
          </Group>
          <Stack gap="md">{children}</Stack>
          <Text size="xs" c="dimmed">
            {loginCopy.TERMS}
          </Text>
        </Stack>
      </Center>
      <Center
        visibleFrom="md"
        flex={1}
        p="xl"
        style={{
          background: 'linear-gradient(135deg, var(--mantine-color-indigo-7), var(--mantine-color-violet-6))',
        }}
      >
        <AuthCarousel />
      </Center>
    </Box>
  );
}
