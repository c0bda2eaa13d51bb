import { Badge } from '@mantine/core';

/** Tells a developer at a glance that this is not a production build (spec §2.3). */
export function EnvironmentBadge() {
  if (!import.meta.env.DEV) return null;
  return (
    <Badge
      color="orange"
      variant="filled"
      size="sm"
      style={{ position: 'fixed', bottom: 8, right: 8, zIndex: 1000, pointerEvents: 'none' }}
    >
      {import.meta.env.MODE}
    </Badge>
  );
}
