import { Avatar } from '@mantine/core';

/** An app's mark: its initials on the app's own colour, the same for an app everywhere (no vendor logos shipped). */
export function AppIcon({ name, size = 36 }: { name: string; size?: number }) {
  return <Avatar name={name} color="initials" radius="md" size={size} aria-hidden />;
}
