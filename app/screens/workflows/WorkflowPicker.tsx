import {
  Anchor,
  Button,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { LlmListResponse } from '../../../common/api/llms';
import { PROMPT_SEARCH_DEBOUNCE_MS, type Prompt } from '../../../common/api/prompts';
import { SOURCE_LIST_MAX_HEIGHT_PX } from '../../../common/limits';
import { workflows as workflowStrings } from '../../../common/strings';
import { workflowsCopy } from '../../strings';
import { availableModelOf, recordWorkflowUse, useWorkflows } from './api';

/**
 * 'View workflows' in the question input (spec asking-questions §2): the member's and the org's workflows,
 * recommended first; picking one puts its template in the box and selects its preferred model when available.
 */
export function WorkflowPicker({
  llms,
  onTextChange,
  onLlmChange,
}: {
  llms: LlmListResponse | undefined;
  onTextChange(text: string): void;
  /** Called only when the workflow's preferred model is one the member may choose now. */
  onLlmChange(id: string): void;
}) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), PROMPT_SEARCH_DEBOUNCE_MS);
  const list = useWorkflows('all', query, opened);

  const pick = (workflow: Prompt) => {
    recordWorkflowUse(workflow);
    const model = availableModelOf(workflow, llms);
    onTextChange(workflow.template);
    if (model) onLlmChange(model);
    setOpened(false);
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="top-start"
      shadow="md"
      withinPortal
      trapFocus
      width={320}
    >
      <Popover.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          fz="xs"
          fw={500}
          leftSection={<IconBolt size={14} />}
          onClick={() => setOpened((value) => !value)}
          data-testid="view-workflows"
        >
          {workflowStrings.VIEW_WORKFLOWS}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="workflow-picker">
        <Stack gap="xs">
          <TextInput
            size="xs"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            placeholder={workflowsCopy.SEARCH_PLACEHOLDER}
            aria-label={workflowsCopy.SEARCH_PLACEHOLDER}
            leftSection={<IconSearch size={14} />}
            data-autofocus
          />
          {list.isPending && <Loader size="xs" />}
          {list.isError && (
            <Text size="xs" c="red.7">
              {workflowStrings.FETCH_ALL_ERROR}
            </Text>
          )}
          {list.data?.prompts.length === 0 && (
            <Text size="xs" c="dimmed">
              {query ? workflowsCopy.noMatch(query) : workflowsCopy.PICKER_EMPTY}
            </Text>
          )}
          <ScrollArea.Autosize mah={SOURCE_LIST_MAX_HEIGHT_PX} type="auto">
            <Stack gap={2}>
              {list.data?.prompts.map((workflow) => (
                <UnstyledButton
                  key={workflow.id}
                  p={6}
                  style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                  onClick={() => pick(workflow)}
                  data-testid="workflow-option"
                >
                  <Text size="sm" fw={500} truncate>
                    {workflow.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {workflow.template}
                  </Text>
                </UnstyledButton>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Anchor component={Link} to="/workflows" size="xs" onClick={() => setOpened(false)}>
            {workflowsCopy.MANAGE}
          </Anchor>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
