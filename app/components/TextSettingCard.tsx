import { Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { serverMessageOf, statusOf } from '../api/errors';
import { aiControlsCopy } from '../strings';
import { notifyFailure, notifySuccess } from './toast';

/**
 * A card that edits one saved text (the disclaimer, custom instructions, a personal background): the text box with
 * its character count, Save while it differs from what is stored, the server's answer put in `cacheKey`, and the
 * given toasts. `locked` stands in for the text box when the plan does not include the setting.
 */
export function TextSettingCard<Saved>(props: {
  title: string;
  hint: string;
  placeholder: string;
  maxLength: number;
  value: string | null;
  save(text: string): Promise<Saved>;
  cacheKey: QueryKey;
  success: string;
  failure: string;
  testId: string;
  locked?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(props.value ?? '');
  const save = useMutation({
    mutationFn: props.save,
    onSuccess: (saved) => {
      queryClient.setQueryData(props.cacheKey, saved);
      notifySuccess(props.success);
    },
    // A 400 says what is wrong with the text; anything else gets the setting's failure toast.
    onError: (error) =>
      notifyFailure(statusOf(error) === 400 ? (serverMessageOf(error) ?? props.failure) : props.failure),
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
            <Title order={4}>{props.title}</Title>
            <Text size="sm" c="dimmed">
              {props.hint}
            </Text>
          </Stack>
          {props.locked ?? (
            <>
              <Textarea
                aria-label={props.title}
                placeholder={props.placeholder}
                value={text}
                maxLength={props.maxLength}
                autosize
                minRows={4}
                maxRows={12}
                onChange={(event) => setText(event.currentTarget.value)}
                description={`${text.length}/${props.maxLength}`}
                inputWrapperOrder={['input', 'description']}
                data-testid={`${props.testId}-input`}
              />
              <Group justify="flex-end">
                <Button
                  type="submit"
                  loading={save.isPending}
                  disabled={text.trim() === (props.value ?? '')}
                  data-testid={`${props.testId}-save`}
                >
                  {aiControlsCopy.SAVE}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
