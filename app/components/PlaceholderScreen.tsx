import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PlaceholderScreenProps {
  title: string;
  children?: ReactNode;
}

/** A screen whose content a later issue fills: its title, so routing can already be seen and tested. */
export function PlaceholderScreen({ title, children }: PlaceholderScreenProps) {
  return (
    <Stack p="xl" gap="md">
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}
