import { Button, Group, Text } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import type { LlmListResponse } from '../../../common/api/llms';
import { PROMPTS_RECOMMENDED } from '../../../common/api/prompts';
import { homeBookmarks, workflows as workflowStrings } from '../../../common/strings';
import { availableModelOf, recordWorkflowUse, useRecommendedWorkflows } from './api';

/**
 * The homepage's row of recommended workflows (spec shell-and-account §2.7: the first 8). A chip fills the question
 * box above it with its template and preferred model; nothing is asked until the member sends.
 */
export function WorkflowChips({
  llms,
  onTextChange,
  onLlmChange,
}: {
  llms: LlmListResponse | undefined;
  onTextChange(text: string): void;
  /** Called only when the workflow's preferred model is one the member may choose now. */
  onLlmChange(id: string): void;
}) {
  const recommended = useRecommendedWorkflows();
  const chips = recommended.data?.prompts.slice(0, PROMPTS_RECOMMENDED) ?? [];
  if (chips.length === 0)
    return (
      <Text
        size="sm"
        c="dimmed"
        ta="center"
        data-testid="workflow-chips"
        // while loading, the line keeps its place, so the rows below do not jump when the answer comes
        style={recommended.isPending ? { visibility: 'hidden' } : undefined}
      >
        {recommended.isError ? workflowStrings.FETCH_ALL_ERROR : homeBookmarks.WORKFLOWS_EMPTY}
      </Text>
    );
  return (
    <Group gap="xs" justify="center" data-testid="workflow-chips">
      {chips.map((workflow) => (
        <Button
          key={workflow.id}
          variant="light"
          color="gray"
          radius="xl"
          size="compact-sm"
          maw="100%"
          styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
          leftSection={<IconBolt size={14} />}
          onClick={() => {
            recordWorkflowUse(workflow);
            const model = availableModelOf(workflow, llms);
            onTextChange(workflow.template);
            if (model) onLlmChange(model);
          }}
          data-testid="workflow-chip"
        >
          {workflow.title}
        </Button>
      ))}
    </Group>
  );
}
