import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  COMPANY_NAME_MAX_CHARS,
  orgFlagsResponseSchema,
  orgSchema,
  type OrgUpdateRequest,
  type OrgView,
} from '../../../common/api/orgs';
import type { CurrentUser } from '../../../common/api/session';
import { ADMIN_FLAGS, type AdminFlag } from '../../../common/flags';
import { shell } from '../../../common/strings';
import { api } from '../../api/client';
import { serverMessageOf, statusOf } from '../../api/errors';
import { ORG_QUERY_ROOT, useOrg } from '../../api/org';
import { CURRENT_USER_QUERY_ROOT, isFlagOn, useSignedInUser } from '../../auth/session';
import { ImagePicker } from '../../components/ImagePicker';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { LOGO_IMAGE } from '../../images';
import { ADMIN_FLAG_COPY, workspaceSettingsCopy as copy } from '../../strings';

const failureMessage = (error: unknown) =>
  statusOf(error) === 400 ? (serverMessageOf(error) ?? shell.DEFAULT_ERROR) : shell.DEFAULT_ERROR;

/**
 * The admin's General settings (spec §2.2 /admin/appearance, §2.8 Workspace group): the workspace's name and logo,
 * its sharing settings and the feature switches an admin owns (common/flags.ts ADMIN_FLAGS). Backgrounds are still
 * to come (issue 17).
 */
export function AppearanceScreen() {
  const user = useSignedInUser();
  const org = useOrg();
  return (
    <Stack p="xl" gap="lg" maw={720}>
      <Title order={1}>{copy.TITLE}</Title>
      <WorkspaceCard user={user} />
      {org.data && <SharingCard user={user} org={org.data} />}
      <FeaturesCard user={user} />
    </Stack>
  );
}

function useOrgSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrgUpdateRequest) => api.patch('orgs', { body, schema: orgSchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ORG_QUERY_ROOT });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_ROOT });
    },
    onError: (error) => notifyFailure(failureMessage(error)),
  });
}

function WorkspaceCard({ user }: { user: CurrentUser }) {
  const [name, setName] = useState(user.org.name);
  const [logo, setLogo] = useState<string | null>(user.org.logo);
  const save = useOrgSettingsMutation();
  const blank = name.trim() === '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (blank) return;
    const body: OrgUpdateRequest = { company_name: name.trim() };
    if (logo !== user.org.logo) body.logo = logo;
    save.mutate(body, { onSuccess: () => notifySuccess(copy.SAVED) });
  };

  return (
    <Paper withBorder radius="lg" p="xl">
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <Title order={4}>{copy.WORKSPACE}</Title>
          <ImagePicker
            label={copy.LOGO}
            hint={copy.LOGO_HINT}
            uploadLabel={copy.UPLOAD_LOGO}
            removeLabel={copy.REMOVE_LOGO}
            kind={LOGO_IMAGE}
            value={logo}
            onChange={setLogo}
            disabled={save.isPending}
          />
          <TextInput
            label={copy.COMPANY_NAME}
            value={name}
            maxLength={COMPANY_NAME_MAX_CHARS}
            onChange={(event) => setName(event.currentTarget.value)}
            data-testid="company-name"
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={blank} loading={save.isPending}>
              {copy.SAVE}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

type SharingSetting = 'public_topics_enabled' | 'auto_invite_members';

function SharingCard({ user, org }: { user: CurrentUser; org: OrgView }) {
  const save = useOrgSettingsMutation();
  const settings: { key: SharingSetting; label: string; hint: string; saved: boolean; shown: boolean }[] = [
    {
      key: 'public_topics_enabled',
      label: copy.PUBLIC_TOPICS,
      hint: copy.PUBLIC_TOPICS_HINT,
      saved: org.publicTopicsEnabled,
      shown: isFlagOn(user, 'publicTopics'),
    },
    {
      key: 'auto_invite_members',
      label: copy.AUTO_INVITE,
      hint: copy.AUTO_INVITE_HINT,
      saved: org.preferences.auto_invite_members,
      shown: true,
    },
  ];
  // Switched optimistically; a refusal puts the switch back as the server still has it.
  const [switched, setSwitched] = useState<Partial<Record<SharingSetting, boolean>>>({});
  const toggle = (key: SharingSetting, label: string, on: boolean) => {
    setSwitched((current) => ({ ...current, [key]: on }));
    save.mutate(
      { [key]: on },
      {
        onSuccess: () => notifySuccess(copy.switched(label, on)),
        onError: () => setSwitched((current) => ({ ...current, [key]: !on })),
      },
    );
  };
  return (
    <Paper withBorder radius="lg" p="xl">
      <Stack gap="md">
        <Title order={4}>{copy.SHARING}</Title>
        {settings
          .filter((setting) => setting.shown)
          .map((setting) => (
            <Switch
              key={setting.key}
              label={setting.label}
              description={setting.hint}
              checked={switched[setting.key] ?? setting.saved}
              onChange={(event) => toggle(setting.key, setting.label, event.currentTarget.checked)}
              data-testid={`switch-${setting.key}`}
            />
          ))}
      </Stack>
    </Paper>
  );
}

function FeaturesCard({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Partial<Record<AdminFlag, boolean>>>({});
  const save = useMutation({
    mutationFn: (change: { flag: AdminFlag; on: boolean }) =>
      api.patch('orgs/flags', {
        body: { flags: { [change.flag]: change.on } },
        schema: orgFlagsResponseSchema,
      }),
    onSuccess: (_saved, change) => {
      notifySuccess(copy.switched(ADMIN_FLAG_COPY[change.flag].label, change.on));
      // The shell reads flags from the current user: refetched, every gated screen and menu entry follows.
      return queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_ROOT });
    },
    onError: (error) => notifyFailure(failureMessage(error)),
    onSettled: (_saved, _error, change) => setPending(({ [change.flag]: _done, ...rest }) => rest),
  });

  return (
    <Paper withBorder radius="lg" p="xl">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={4}>{copy.FEATURES}</Title>
          <Text size="sm" c="dimmed">
            {copy.FEATURES_HINT}
          </Text>
        </Stack>
        {ADMIN_FLAGS.map((flag) => (
          <Switch
            key={flag}
            label={ADMIN_FLAG_COPY[flag].label}
            description={ADMIN_FLAG_COPY[flag].hint}
            checked={pending[flag] ?? isFlagOn(user, flag)}
            disabled={pending[flag] !== undefined}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              setPending((current) => ({ ...current, [flag]: on }));
              save.mutate({ flag, on });
            }}
            data-testid={`switch-${flag}`}
          />
        ))}
      </Stack>
    </Paper>
  );
}
