import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconMailCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { emailSchema } from '../../common/api/auth';
import type { SignInProvider } from '../../common/api/auth';
import { UNKNOWN_ACCOUNT_NOTICE_MS, isLoginCode } from '../../common/limits';
import { auth, devSignIn, shell, validation } from '../../common/strings';
import { serverMessageOf, statusOf } from '../api/errors';
import { CODE_STAGE, LOGIN_PARAMS, loginSearch, readLoginState } from '../auth/login-params';
import type { LoginState } from '../auth/login-params';
import { safeRedirectTarget } from '../auth/redirect';
import { signInApi, storeSignIn } from '../auth/sign-in';
import { AuthLayout } from '../components/AuthLayout';
import { DEMO_URL } from '../config';
import { isInFrame } from '../frame';
import { loginCopy } from '../strings';

/**
 * The sign-in screen (spec §2.4, §4.1). Its stage lives in the address (app/auth/login-params.ts): the email form,
 * then for email-code sign-in the code form; Google and SSO leave for the identity provider and come back with a
 * one-time grant, or with the unauthorized state.
 */
export function LoginScreen() {
  const [params] = useSearchParams();
  const state = readLoginState(params);

  let content;
  if (isInFrame()) content = <SidePanelSignIn />;
  else if (state.grant) content = <GrantSignIn grant={state.grant} redirect={state.redirect} />;
  else if (state.unauthorized) content = <UnauthorizedState message={state.message} />;
  else if (state.stage === CODE_STAGE) content = <CodeStage state={state} />;
  else content = <EmailStage state={state} />;
  return <AuthLayout>{content}</AuthLayout>;
}

function Heading() {
  return (
    <Stack gap={4}>
      <Title order={2}>{auth.SIGN_IN_HEADING}</Title>
      <Text c="dimmed">{auth.TAGLINE}</Text>
    </Stack>
  );
}

function FailureAlert({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {text}
    </Alert>
  );
}

function SignUpLink() {
  return (
    <Anchor component={Link} to="/signup" size="sm" ta="center">
      {auth.NO_ACCOUNT_SIGN_UP}
    </Anchor>
  );
}

function BackLink({ onClick }: { onClick: () => void }) {
  return (
    <Anchor component="button" type="button" size="sm" onClick={onClick} style={{ alignSelf: 'flex-start' }}>
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {auth.BACK}
      </Group>
    </Anchor>
  );
}

const BUTTON_LABELS: Record<SignInProvider, string> = {
  email: auth.CONTINUE_WITH_EMAIL,
  google: auth.CONTINUE_WITH_GOOGLE,
  sso: auth.CONTINUE,
};

/** Rate limits and the like: the server's own words; anything without them, the generic failure. */
function genericFailure(error: unknown): string {
  return statusOf(error) === 429 ? (serverMessageOf(error) ?? shell.DEFAULT_ERROR) : shell.DEFAULT_ERROR;
}

/** Spec §8: 403 means SSO is enforced (the server says so) or the person may not sign in. */
function forbiddenMessage(error: unknown): string {
  return serverMessageOf(error) === auth.SSO_FORCED ? auth.SSO_FORCED : auth.REQUEST_ACCESS;
}

/** Stage 0: the work email, the provider look-up, then the provider's way in. */
function EmailStage({ state }: { state: LoginState }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState(state.email ?? state.customDomainEmail ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(state.error);
  const [unknownAccount, setUnknownAccount] = useState<{ email: string; at: number } | null>(null);
  const { redirect } = state;
  // A provider without the email it was found for (a hand-made address) is no provider yet.
  const provider = state.email ? state.provider : null;

  // Spec §8, §9: the unknown-account notice shows for 8 s.
  useEffect(() => {
    if (!unknownAccount) return;
    const timer = setTimeout(() => setUnknownAccount(null), UNKNOWN_ACCOUNT_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [unknownAccount]);

  const lookup = useMutation({
    mutationFn: signInApi.provider,
    onSuccess: (answer, address) =>
      navigate({ search: loginSearch({ email: address, provider: answer.provider, redirect }) }),
    onError: (error, address) => {
      if (statusOf(error) === 404) setUnknownAccount({ email: address, at: Date.now() });
      else setFailure(genericFailure(error));
    },
  });

  const requestCode = useMutation({
    mutationFn: signInApi.requestCode,
    onSuccess: (_answer, address) =>
      navigate({ search: loginSearch({ email: address, provider: 'email', stage: CODE_STAGE, redirect }) }),
    onError: (error) => {
      const status = statusOf(error);
      if (status === 403) setFailure(forbiddenMessage(error));
      else if (status === 429) setFailure(genericFailure(error));
      else setFailure(auth.CODE_REQUEST_FAILED);
    },
  });

  // Google and SSO: the browser leaves for the identity provider in this window (spec §4.1 steps 2–3).
  const google = useMutation({
    mutationFn: signInApi.googleUrl,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => setFailure(serverMessageOf(error) ?? shell.DEFAULT_ERROR),
  });

  const sso = useMutation({
    mutationFn: signInApi.ssoAddress,
    onSuccess: ({ url, on_prem_url }, address) => {
      const onPrem = on_prem_url ? new URL(on_prem_url, window.location.href) : null;
      if (onPrem && onPrem.origin !== window.location.origin) {
        const target = new URL('/login', onPrem);
        target.searchParams.set(LOGIN_PARAMS.customDomainEmail, address);
        window.location.assign(target.href);
      } else {
        window.location.assign(url);
      }
    },
    onError: (error) => setFailure(statusOf(error) === 501 ? auth.SSO_NOT_SUPPORTED : genericFailure(error)),
  });

  const leaving = google.isSuccess || sso.isSuccess;
  const busy = lookup.isPending || requestCode.isPending || google.isPending || sso.isPending || leaving;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? validation.INVALID_EMAIL);
      return;
    }
    setFieldError(null);
    setFailure(null);
    setUnknownAccount(null);
    const address = parsed.data;
    if (!provider) lookup.mutate(address);
    else if (provider === 'email') requestCode.mutate(address);
    else if (provider === 'google') google.mutate(address);
    else sso.mutate(address);
  };

  const back = () => {
    setFailure(null);
    setFieldError(null);
    setUnknownAccount(null);
    navigate({ search: loginSearch({ redirect }) });
  };

  return (
    <>
      <Heading />
      <FailureAlert text={failure} />
      {unknownAccount && (
        <Alert color="yellow" variant="light" title={auth.UNKNOWN_ACCOUNT} data-testid="unknown-account">
          <Stack gap="xs">
            <Text size="sm">{auth.UNKNOWN_ACCOUNT_ADVICE}</Text>
            <Anchor
              component={Link}
              to={`/signup?${new URLSearchParams({ [LOGIN_PARAMS.email]: unknownAccount.email })}`}
              size="sm"
              fw={600}
            >
              {loginCopy.SIGN_UP}
            </Anchor>
          </Stack>
        </Alert>
      )}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <TextInput
            label={auth.WORK_EMAIL}
            placeholder={auth.EMAIL_PLACEHOLDER}
            type="email"
            autoComplete="email"
            autoFocus
            size="md"
            value={email}
            readOnly={provider !== null}
            variant={provider ? 'filled' : 'default'}
            error={fieldError}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setFieldError(null);
            }}
          />
          <Button type="submit" fullWidth size="md" loading={busy}>
            {provider ? BUTTON_LABELS[provider] : auth.CONTINUE}
          </Button>
        </Stack>
      </form>
      {provider && <BackLink onClick={back} />}
      <SignUpLink />
    </>
  );
}

/** Spec §8: what a refused code means to the person who typed it. */
function confirmFailure(error: unknown): string {
  const status = statusOf(error);
  if (status === 401) return auth.CODE_INVALID;
  if (status === 403) return forbiddenMessage(error);
  return genericFailure(error);
}

/** Stage 1: the code from the mail. A code in the address is submitted at once (spec §4.1 step 6). */
function CodeStage({ state }: { state: LoginState }) {
  const navigate = useNavigate();
  const [code, setCode] = useState(state.code ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const autoSubmitted = useRef(false);
  const email = emailSchema.safeParse(state.email ?? '').data;
  const delivery = useQuery({
    queryKey: ['auth', 'code-delivery'],
    queryFn: signInApi.codeDelivery,
    staleTime: Infinity,
  });

  const confirm = useMutation({
    mutationFn: (typed: string) => signInApi.confirm({ code: typed, email }),
    onSuccess: (answer) => {
      storeSignIn(answer);
      navigate(safeRedirectTarget(answer.loginUrl, window.location.origin) ?? '/', { replace: true });
    },
    onError: (error) => setFailure(confirmFailure(error)),
  });
  const { mutate } = confirm;

  useEffect(() => {
    if (!state.code || autoSubmitted.current) return;
    autoSubmitted.current = true;
    // The code leaves the address at once: a reload must not spend it again, nor the history keep it.
    navigate(
      {
        search: loginSearch({
          email: state.email,
          provider: state.provider ?? 'email',
          stage: CODE_STAGE,
          redirect: state.redirect,
        }),
      },
      { replace: true },
    );
    mutate(state.code);
  }, [state.code, state.email, state.provider, state.redirect, navigate, mutate]);

  const trimmed = code.trim();
  const valid = isLoginCode(trimmed);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || confirm.isPending) return;
    setFailure(null);
    mutate(trimmed);
  };

  return (
    <>
      <Heading />
      <Alert color="indigo" variant="light" icon={<IconMailCheck size={18} />}>
        <Text size="sm" fw={600}>
          {auth.CODE_SENT}
        </Text>
        {delivery.data?.code_in_server_console ? (
          <Text size="sm" c="dimmed" data-testid="code-in-console">
            {devSignIn.CODE_IN_SERVER_CONSOLE}
          </Text>
        ) : (
          state.email && (
            <Text size="sm" c="dimmed">
              {loginCopy.codeSentTo(state.email)}
            </Text>
          )
        )}
      </Alert>
      <FailureAlert text={failure} />
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <TextInput
            label={loginCopy.CODE_LABEL}
            placeholder={auth.CODE_PLACEHOLDER}
            autoComplete="one-time-code"
            autoFocus
            size="md"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 1 } }}
            value={code}
            error={trimmed !== '' && !valid ? auth.INVALID_CODE : null}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setFailure(null);
            }}
          />
          <Button
            type="submit"
            fullWidth
            size="md"
            disabled={!valid}
            loading={confirm.isPending || confirm.isSuccess}
          >
            {auth.LOGIN}
          </Button>
        </Stack>
      </form>
      <BackLink onClick={() => navigate({ search: loginSearch({ redirect: state.redirect }) })} />
    </>
  );
}

/** Back from Google or SSO with a one-time grant: exchanged for tokens, then on to where the visitor was going. */
function GrantSignIn({ grant, redirect }: { grant: string; redirect: string | null }) {
  const navigate = useNavigate();
  const started = useRef(false);
  const exchange = useMutation({
    mutationFn: signInApi.grant,
    onSuccess: (tokens) => {
      storeSignIn(tokens);
      navigate(safeRedirectTarget(redirect, window.location.origin) ?? '/', { replace: true });
    },
  });
  const { mutate } = exchange;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate(grant);
  }, [grant, mutate]);

  if (exchange.isError) {
    return (
      <>
        <Heading />
        <FailureAlert text={auth.INVALID_CREDENTIALS} />
        <BackLink onClick={() => navigate({ search: loginSearch({ redirect }) }, { replace: true })} />
      </>
    );
  }
  return (
    <Group gap="sm">
      <Loader size="sm" />
      <Text>{loginCopy.SIGNING_IN}</Text>
    </Group>
  );
}

/**
 * The identity provider knew the person, but Scout has no account for them (spec §2.4). A message saying Scout is
 * 'not configured' for them offers 'Book a demo' instead (spec §8).
 */
function UnauthorizedState({ message }: { message: string | null }) {
  const navigate = useNavigate();
  return (
    <>
      <Title order={2}>{auth.ACCOUNT_DOES_NOT_EXIST}</Title>
      {message && <Text c="dimmed">{message}</Text>}
      <Text fw={600}>{auth.INTERESTED_IN_DEMO}</Text>
      <Button component="a" href={DEMO_URL} size="md">
        {message?.includes(auth.NOT_CONFIGURED_MARKER) ? auth.BOOK_A_DEMO : auth.FIND_A_TIME}
      </Button>
      <BackLink onClick={() => navigate({ search: '' }, { replace: true })} />
    </>
  );
}

/** Inside the extension's frame there is no room to sign in: the sign-in opens in a tab of its own (spec §2.4). */
function SidePanelSignIn() {
  return (
    <>
      <Heading />
      <Text size="sm" c="dimmed">
        {loginCopy.SIDE_PANEL_SIGN_IN}
      </Text>
      <Button size="md" onClick={() => window.open(`${window.location.origin}/login`, '_blank', 'noopener')}>
        {auth.SIGN_IN}
      </Button>
    </>
  );
}
