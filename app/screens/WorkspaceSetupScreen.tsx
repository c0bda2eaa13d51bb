import { Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { orgSchema } from '../../common/api/orgs';
import { shell } from '../../common/strings';
import { api } from '../api/client';
import { serverMessageOf, statusOf } from '../api/errors';
import { ORG_QUERY_ROOT } from '../api/org';
import { CURRENT_USER_QUERY_ROOT, useCurrentUser, useSignedInUser } from '../auth/session';
import { ImagePicker } from '../components/ImagePicker';
import { notifyFailure } from '../components/toast';
import { LOGO_IMAGE } from '../images';
import { setupCopy } from '../strings';

/**
 * Workspace onboarding (spec §2.2, §4.4): until the org is set up, every signed-in address leads here. An admin names
 * the company (and may give its logo), which marks the org set up (PATCH /orgs); then on to the homepage.
 */
export function WorkspaceSetupScreen() {
  const user = useSignedInUser();
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w={480} maw="100%">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={2}>{setupCopy.WORKSPACE_TITLE}</Title>
            <Text c="dimmed">{setupCopy.WORKSPACE_INTRO}</Text>
          </Stack>
          {user.admin ? <CompanyDetailsForm /> : <WaitingForAdmin />}
        </Stack>
      </Paper>
    </Center>
  );
}

function CompanyDetailsForm() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [companyName, setCompanyName] = useState(user.org.name);
  const [logo, setLogo] = useState<string | null>(user.org.logo);

  const save = useMutation({
    mutationFn: () =>
      api.patch('orgs', {
        body: { company_name: companyName.trim(), ...(logo !== user.org.logo ? { logo } : {}) },
        schema: orgSchema,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_ROOT });
      void queryClient.invalidateQueries({ queryKey: ORG_QUERY_ROOT });
      navigate('/', { replace: true });
    },
    onError: (error) =>
      notifyFailure(
        statusOf(error) === 400 ? (serverMessageOf(error) ?? shell.DEFAULT_ERROR) : shell.DEFAULT_ERROR,
      ),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (companyName.trim() !== '') save.mutate();
  };

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <TextInput
          label={setupCopy.COMPANY_NAME}
          value={companyName}
          maxLength={100}
          required
          onChange={(event) => setCompanyName(event.currentTarget.value)}
        />
        <ImagePicker
          label={setupCopy.LOGO}
          hint={setupCopy.LOGO_HINT}
          uploadLabel={setupCopy.UPLOAD_LOGO}
          removeLabel={setupCopy.REMOVE_LOGO}
          kind={LOGO_IMAGE}
          value={logo}
          onChange={setLogo}
          disabled={save.isPending}
        />
        <Button type="submit" size="md" disabled={companyName.trim() === ''} loading={save.isPending}>
          {setupCopy.CONTINUE}
        </Button>
      </Stack>
    </form>
  );
}

/** A member of an org whose admin has not finished: nothing to do but wait (PATCH /orgs is the admins'). */
function WaitingForAdmin() {
  const user = useCurrentUser();
  return (
    <Stack gap="md">
      <Text>{setupCopy.WAITING_FOR_ADMIN}</Text>
      <Button variant="default" loading={user.isFetching} onClick={() => void user.refetch()}>
        {setupCopy.CHECK_AGAIN}
      </Button>
    </Stack>
  );
}
