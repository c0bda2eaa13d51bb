import { Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { personalAiControlsSchema } from '../../common/api/ai-controls';
import { PERSONAL_BACKGROUND_MAX_CHARS } from '../../common/limits';
import { settings as settingsStrings } from '../../common/strings';
import { aiControlsKeys, usePersonalAiControls } from '../api/ai-controls';
import { api } from '../api/client';
import { serverMessageOf, statusOf } from '../api/errors';
import { notifyFailure, notifySuccess } from '../components/toast';
import { aiControlsCopy as copy } from '../strings';

/** /my-ai-controls (spec §2.2): what the member tells the assistant about themselves, used in their own prompts. */
export function MyAiControlsScreen() {
  const personal = usePersonalAiControls();
  useEffect(() => {
    if (personal.isError) notifyFailure(settingsStrings.FAILED_TO_FETCH_AI_CONTROLS);
  }, [personal.isError]);
  return (
    <Stack p="xl" gap="lg" maw={720}>
      <Title order={1}>{copy.MY_TITLE}</Title>
      {personal.data ? (
        <BackgroundCard value={personal.data.personal_background} />
      ) : (
        !personal.isError && <Loader size="sm" />
      )}
    </Stack>
  );
}

function BackgroundCard({ value }: { value: string | null }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(value ?? '');
  const save = useMutation({
    mutationFn: (personal_background: string) =>
      api.post('ai_controls/personal', { body: { personal_background }, schema: personalAiControlsSchema }),
    onSuccess: (saved) => {
      queryClient.setQueryData(aiControlsKeys.personal, saved);
      notifySuccess(copy.PERSONAL_SAVED);
    },
    onError: (error) =>
      notifyFailure(
        statusOf(error) === 400
          ? (serverMessageOf(error) ?? copy.PERSONAL_SAVE_FAILED)
          : copy.PERSONAL_SAVE_FAILED,
      ),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(text);
  };
  return (
    <Paper withBorder radius="lg" p="xl">
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={4}>{copy.PERSONAL_BACKGROUND}</Title>
            <Text size="sm" c="dimmed">
              {copy.PERSONAL_BACKGROUND_HINT}
            </Text>
          </Stack>
          <Textarea
            aria-label={copy.PERSONAL_BACKGROUND}
            placeholder={copy.PERSONAL_BACKGROUND_PLACEHOLDER}
            value={text}
            maxLength={PERSONAL_BACKGROUND_MAX_CHARS}
            autosize
            minRows={4}
            maxRows={12}
            onChange={(event) => setText(event.currentTarget.value)}
            description={`${text.length}/${PERSONAL_BACKGROUND_MAX_CHARS}`}
            inputWrapperOrder={['input', 'description']}
            data-testid="personal-background-input"
          />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={save.isPending}
              disabled={text.trim() === (value ?? '')}
              data-testid="personal-background-save"
            >
              {copy.SAVE}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
