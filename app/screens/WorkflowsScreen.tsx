import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPlayerPlay, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PROMPT_SEARCH_DEBOUNCE_MS, type Prompt, type PromptListFilter } from '../../common/api/prompts';
import { getModel } from '../../common/models';
import { workflows as workflowStrings } from '../../common/strings';
import { useLlms } from '../chat/api';
import { notifyFailure, notifySuccess } from '../components/toast';
import { workflowsCopy } from '../strings';
import {
  availableModelOf,
  recordWorkflowUse,
  refreshWorkflows,
  useWorkflows,
  workflowsApi,
} from './workflows/api';
import { workflowDraftState } from './workflows/draft';
import { WorkflowDialog, type WorkflowDialogSubject } from './workflows/WorkflowDialog';

const FILTERS: { value: PromptListFilter; label: string }[] = [
  { value: 'all', label: workflowsCopy.FILTER_ALL },
  { value: 'mine', label: workflowsCopy.FILTER_MINE },
  { value: 'org', label: workflowsCopy.FILTER_ORG },
  { value: 'recommended', label: workflowsCopy.FILTER_RECOMMENDED },
];

/** /workflows (spec shell-and-account §2.2): the member's and the org's workflows, to search, use and manage. */
export function WorkflowsScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const llms = useLlms();
  const [filter, setFilter] = useState<PromptListFilter>('all');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), PROMPT_SEARCH_DEBOUNCE_MS);
  const list = useWorkflows(filter, query);
  const [editing, setEditing] = useState<WorkflowDialogSubject | null>(null);
  const [deleting, setDeleting] = useState<Prompt | null>(null);

  const remove = useMutation({
    mutationFn: (workflow: Prompt) => workflowsApi.remove(workflow.id),
    onSuccess: () => {
      notifySuccess(workflowsCopy.DELETED);
      setDeleting(null);
      refreshWorkflows(queryClient);
    },
    onError: () => notifyFailure(workflowsCopy.DELETE_FAILED),
  });

  const use = (workflow: Prompt) => {
    recordWorkflowUse(workflow);
    navigate('/chat', {
      state: workflowDraftState({ text: workflow.template, llm: availableModelOf(workflow, llms.data) }),
    });
  };

  // An edit starts from the stored workflow, not from a list that may be out of date.
  const edit = async (workflow: Prompt) => {
    try {
      setEditing({ kind: 'edit', workflow: (await workflowsApi.get(workflow.id)).prompt });
    } catch {
      notifyFailure(workflowStrings.FETCH_ONE_ERROR);
    }
  };

  const items = list.data?.prompts ?? [];
  return (
    <Stack p={{ base: 'md', sm: 'xl' }} gap="lg" data-testid="workflows">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{workflowsCopy.TITLE}</Title>
          <Text c="dimmed" size="sm">
            {workflowsCopy.INTRO}
          </Text>
        </Stack>
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setEditing({ kind: 'create', title: '', template: '' })}
          data-testid="workflow-new"
        >
          {workflowsCopy.NEW}
        </Button>
      </Group>
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          value={filter}
          onChange={(value) => setFilter(value as PromptListFilter)}
          data={FILTERS}
          aria-label={workflowsCopy.FILTER_LABEL}
          data-testid="workflow-filter"
        />
        <TextInput
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          placeholder={workflowsCopy.SEARCH_PLACEHOLDER}
          aria-label={workflowsCopy.SEARCH_PLACEHOLDER}
          leftSection={<IconSearch size={16} />}
          style={{ flex: 1, minWidth: 200 }}
          data-testid="workflow-search"
        />
      </Group>

      {list.isPending && <Loader size="sm" />}
      {list.isError && (
        <Alert color="red" variant="light" data-testid="workflows-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{workflowStrings.FETCH_ALL_ERROR}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void list.refetch()}>
              {workflowsCopy.RETRY}
            </Button>
          </Stack>
        </Alert>
      )}
      {list.data && items.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <Text c="dimmed" ta="center" data-testid="workflows-empty">
            {query
              ? workflowsCopy.noMatch(query)
              : filter === 'all'
                ? workflowsCopy.EMPTY
                : workflowsCopy.EMPTY_FILTERED}
          </Text>
        </Paper>
      )}
      {items.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {items.map((workflow) => (
            <WorkflowCard
              key={workflow.id}
              workflow={workflow}
              onUse={() => use(workflow)}
              onEdit={() => void edit(workflow)}
              onDelete={() => setDeleting(workflow)}
            />
          ))}
        </SimpleGrid>
      )}

      <WorkflowDialog subject={editing} onClose={() => setEditing(null)} />
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={workflowsCopy.DELETE_TITLE}
        centered
      >
        {deleting && (
          <Stack gap="lg">
            <Text size="sm">{workflowsCopy.deleteText(deleting.title)}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {workflowsCopy.CANCEL}
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() => remove.mutate(deleting)}
                data-testid="workflow-delete-confirm"
              >
                {workflowsCopy.DELETE}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function WorkflowCard({
  workflow,
  onUse,
  onEdit,
  onDelete,
}: {
  workflow: Prompt;
  onUse(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const model = workflow.preferred_llm ? getModel(workflow.preferred_llm) : undefined;
  return (
    <Paper withBorder radius="lg" p="md" data-testid="workflow-card" data-title={workflow.title}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {workflow.title}
          </Text>
          {workflow.can_edit && (
            <Group gap={2} wrap="nowrap">
              <Tooltip label={workflowsCopy.EDIT} withinPortal>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={onEdit}
                  aria-label={workflowsCopy.editLabel(workflow.title)}
                  data-testid="workflow-edit"
                >
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={workflowsCopy.DELETE} withinPortal>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={onDelete}
                  aria-label={workflowsCopy.deleteLabel(workflow.title)}
                  data-testid="workflow-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        <Text size="sm" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {workflow.template}
        </Text>
        <Group gap={6} mt="auto">
          {workflow.is_recommended && (
            <Badge variant="light" color="yellow" data-testid="workflow-recommended">
              {workflowsCopy.BADGE_RECOMMENDED}
            </Badge>
          )}
          <Badge variant="light" color={workflow.visibility === 'ORG' ? 'indigo' : 'gray'}>
            {workflow.visibility === 'ORG' ? workflowsCopy.BADGE_ORG : workflowsCopy.BADGE_PRIVATE}
          </Badge>
          {model && (
            <Badge variant="outline" color="gray">
              {model.name}
            </Badge>
          )}
          {!workflow.is_mine && workflow.author && (
            <Text size="xs" c="dimmed">
              {workflowsCopy.byAuthor(workflow.author.display_name ?? workflow.author.email)}
            </Text>
          )}
          <Button
            size="compact-sm"
            variant="light"
            ml="auto"
            leftSection={<IconPlayerPlay size={14} />}
            onClick={onUse}
            data-testid="workflow-use"
          >
            {workflowsCopy.USE}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
