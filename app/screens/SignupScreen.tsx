import { Alert, Anchor, Button, Divider, Group, Stack, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconBrandGoogle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { emailSchema } from '../../common/api/auth';
import { auth, shell } from '../../common/strings';
import { serverMessageOf, statusOf } from '../api/errors';
import { canSignUp } from '../auth/forms';
import { CODE_STAGE, LOGIN_PARAMS, loginSearch } from '../auth/login-params';
import { signInApi } from '../auth/sign-in';
import { AuthLayout } from '../components/AuthLayout';
import { notifyFailure, notifySuccess } from '../components/toast';

/** The server's refusals it words itself (a public email domain, a failed CAPTCHA, SSO enforced, no access). */
const SERVER_WORDED = new Set<string>([auth.CAPTCHA_FAILED, auth.SSO_FORCED, auth.REQUEST_ACCESS]);

/** The sign-up screen (spec §2.5) and its outcomes (§4.2). */
export function SignupScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState({
    email: params.get(LOGIN_PARAMS.email) ?? '',
    firstName: '',
    lastName: '',
  });
  const [failure, setFailure] = useState<string | null>(null);

  const toLogin = (email: string, stage?: typeof CODE_STAGE) =>
    navigate(`/login${loginSearch({ email, provider: 'email', stage })}`);

  const signUp = useMutation({
    mutationFn: signInApi.signUp,
    onSuccess: (_answer, body) => {
      notifySuccess(auth.SIGNUP_SUCCESS);
      toLogin(body.email, CODE_STAGE);
    },
    onError: (error, body) => {
      const status = statusOf(error);
      const message = serverMessageOf(error);
      if (status === 409) {
        notifyFailure(
          message === auth.ALREADY_ORG_MEMBER ? auth.ALREADY_ORG_MEMBER : auth.SIGNUP_ALREADY_EXISTS,
        );
        toLogin(body.email);
      } else if (status === 400 && message) {
        setFailure(message);
      } else if (status === 403 && message && SERVER_WORDED.has(message)) {
        setFailure(message);
      } else if (status === 429) {
        setFailure(message ?? shell.DEFAULT_ERROR);
      } else {
        setFailure(auth.SIGNUP_FAILED);
      }
    },
  });

  const google = useMutation({
    mutationFn: () => signInApi.googleUrl(emailSchema.safeParse(form.email).data),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => setFailure(serverMessageOf(error) ?? shell.DEFAULT_ERROR),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSignUp(form) || signUp.isPending) return;
    setFailure(null);
    signUp.mutate({
      email: emailSchema.parse(form.email),
      first_name: form.firstName.trim(),
      last_name: form.lastName.trim(),
    });
  };

  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setForm((current) => ({ ...current, [key]: value }));
    },
  });

  return (
    <AuthLayout>
      <Title order={2}>{auth.SIGN_UP_HEADING}</Title>
      {failure && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {failure}
        </Alert>
      )}
      <Button
        variant="default"
        size="md"
        leftSection={<IconBrandGoogle size={18} />}
        loading={google.isPending || google.isSuccess}
        onClick={() => google.mutate()}
      >
        {auth.CONTINUE_WITH_GOOGLE}
      </Button>
      <Divider label={auth.OR} labelPosition="center" />
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <TextInput
            label={auth.WORK_EMAIL}
            placeholder={auth.EMAIL_PLACEHOLDER}
            type="email"
            autoComplete="email"
            size="md"
            {...field('email')}
          />
          <Group grow gap="md">
            <TextInput label={auth.FIRST_NAME} autoComplete="given-name" size="md" {...field('firstName')} />
            <TextInput label={auth.LAST_NAME} autoComplete="family-name" size="md" {...field('lastName')} />
          </Group>
          <Button type="submit" size="md" fullWidth disabled={!canSignUp(form)} loading={signUp.isPending}>
            {auth.SIGN_UP_WITH_EMAIL}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {auth.ALREADY_HAVE_ACCOUNT}
      </Anchor>
    </AuthLayout>
  );
}
