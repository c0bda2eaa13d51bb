import { Anchor, Button, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { auth } from '../../common/strings';
import { AuthLayout } from '../components/AuthLayout';

/**
 * The sign-in screen's first stage (spec §2.4). The provider look-up and the code stage come with the
 * sign-in flow; until then Continue stays disabled rather than pretending to work.
 */
export function LoginScreen() {
  return (
    <AuthLayout>
      <Title order={2}>{auth.SIGN_IN_HEADING}</Title>
      <Text c="dimmed">{auth.TAGLINE}</Text>
      <form onSubmit={(event) => event.preventDefault()}>
        <TextInput
          label={auth.WORK_EMAIL}
          placeholder={auth.EMAIL_PLACEHOLDER}
          type="email"
          autoComplete="email"
        />
        <Button type="submit" fullWidth mt="md" disabled>
          {auth.CONTINUE}
        </Button>
      </form>
      <Anchor component={Link} to="/signup" size="sm" ta="center">
        {auth.NO_ACCOUNT_SIGN_UP}
      </Anchor>
    </AuthLayout>
  );
}
