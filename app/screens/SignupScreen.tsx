import { Anchor, Title } from '@mantine/core';
import { Link } from 'react-router';
import { auth } from '../../common/strings';
import { AuthLayout } from '../components/AuthLayout';

/** The sign-up screen (spec §2.5); its form comes with the sign-up flow. */
export function SignupScreen() {
  return (
    <AuthLayout>
      <Title order={2}>{auth.SIGN_UP_HEADING}</Title>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {auth.ALREADY_HAVE_ACCOUNT}
      </Anchor>
    </AuthLayout>
  );
}
