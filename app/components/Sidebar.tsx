import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useSignedInUser } from '../auth/session';

/** Placeholder of the sidebar (spec §2.8); for now only its top, the workspace name linking home. */
export function Sidebar() {
  const user = useSignedInUser();
  return (
    <Anchor
      component={Link}
      to="/"
      fw={700}
      size="lg"
      c="inherit"
      underline="never"
      data-testid="workspace-name"
    >
      {user.org.name}
    </Anchor>
  );
}
