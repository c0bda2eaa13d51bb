import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { AppDetails } from '../../../common/api/chat';
import { getApp } from '../../../common/catalogue';
import { apps as appStrings } from '../../../common/strings';
import {
  DETAIL_FIELDS_BY_APP,
  detailsInputOf,
  hasDetails,
  parseDetails,
  type DetailsInput,
} from '../../chat/sources';
import { chatCopy } from '../../strings';

type Props = {
  app: string;
  details: AppDetails | undefined;
  onSave(details: AppDetails | null): void;
  onClose(): void;
};

/**
 * Specify sources of one app (spec apps-and-connections §4): the files, folders, drives, channels or spaces to
 * search, comma separated. Mounted only while open, so each opening starts from the entries saved.
 */
export function SpecifySourcesModal({ app, details, onSave, onClose }: Props) {
  const [input, setInput] = useState<DetailsInput>(() => detailsInputOf(details));
  const fields = DETAIL_FIELDS_BY_APP[app] ?? [];
  const parsed = parseDetails(input);
  const name = getApp(app)?.displayName ?? app;
  return (
    <Modal opened onClose={onClose} title={chatCopy.specifySourcesTitle(name)} centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {chatCopy.SPECIFY_SOURCES_HINT}
        </Text>
        {fields.map((field) => (
          <TextInput
            key={field}
            label={chatCopy.detailFieldLabels[field]}
            value={input[field] ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setInput((current) => ({ ...current, [field]: value }));
            }}
            data-testid={`specify-field-${field}`}
          />
        ))}
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="gray"
            disabled={!hasDetails(details)}
            onClick={() => {
              onSave(null);
              onClose();
            }}
          >
            {chatCopy.SPECIFY_SOURCES_CLEAR}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {appStrings.CANCEL}
            </Button>
            <Button
              disabled={!hasDetails(parsed)}
              onClick={() => {
                onSave(parsed);
                onClose();
              }}
              data-testid="specify-save"
            >
              {appStrings.SAVE}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
