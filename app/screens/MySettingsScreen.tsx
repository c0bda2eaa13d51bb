import { Button, Group, Input, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { personNameSchema } from '../../common/api/auth';
import { currentUserSchema } from '../../common/api/session';
import type { UserUpdateRequest } from '../../common/api/users';
import { shell } from '../../common/strings';
import { api } from '../api/client';
import { serverMessageOf, statusOf } from '../api/errors';
import { currentUserQueryKey, useSignedInUser, useTokens } from '../auth/session';
import { ImagePicker } from '../components/ImagePicker';
import { notifyFailure, notifySuccess } from '../components/toast';
import { PHOTO_IMAGE } from '../images';
import { mySettingsCopy } from '../strings';

/** Personal settings (spec §2.2 /my-settings): the name colleagues see, the photo, and the email signed in with. */
export function MySettingsScreen() {
  const user = useSignedInUser();
  const tokens = useTokens();
  const queryClient = useQueryClient();
  // The display name falls back to the email on the server; an email is no name to edit.
  const [name, setName] = useState(user.metadata.displayName === user.email ? '' : user.metadata.displayName);
  const [photo, setPhoto] = useState<string | null>(user.metadata.photoUrl);

  const nameCheck = name.trim() === '' ? null : personNameSchema.safeParse(name);
  const nameError = nameCheck && !nameCheck.success ? nameCheck.error.issues[0]?.message : null;

  const save = useMutation({
    mutationFn: (body: UserUpdateRequest) =>
      api.patch(`users/${encodeURIComponent(user.userId)}`, { body, schema: currentUserSchema }),
    onSuccess: (saved) => {
      queryClient.setQueryData(currentUserQueryKey(tokens?.username), saved);
      notifySuccess(mySettingsCopy.SAVED);
    },
    onError: (error) =>
      notifyFailure(
        statusOf(error) === 400 ? (serverMessageOf(error) ?? shell.DEFAULT_ERROR) : shell.DEFAULT_ERROR,
      ),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (nameError) return;
    const body: UserUpdateRequest = { display_name: name.trim() === '' ? null : name.trim() };
    if (photo !== user.metadata.photoUrl) body.photo = photo;
    save.mutate(body);
  };

  return (
    <Stack p="xl" gap="lg" maw={640}>
      <Title order={1}>{mySettingsCopy.TITLE}</Title>
      <Paper withBorder radius="lg" p="xl">
        <form noValidate onSubmit={onSubmit}>
          <Stack gap="md">
            <Title order={4}>{mySettingsCopy.PROFILE}</Title>
            <ImagePicker
              label={mySettingsCopy.PHOTO}
              hint={mySettingsCopy.PHOTO_HINT}
              uploadLabel={mySettingsCopy.UPLOAD_PHOTO}
              removeLabel={mySettingsCopy.REMOVE_PHOTO}
              kind={PHOTO_IMAGE}
              value={photo}
              onChange={setPhoto}
              radius="xl"
              disabled={save.isPending}
            />
            <TextInput
              label={mySettingsCopy.DISPLAY_NAME}
              value={name}
              maxLength={100}
              error={nameError}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <Stack gap={2}>
              <Input.Label>{mySettingsCopy.EMAIL}</Input.Label>
              <Text size="sm" c="dimmed" data-testid="my-email">
                {user.email}
              </Text>
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" disabled={Boolean(nameError)} loading={save.isPending}>
                {mySettingsCopy.SAVE}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
