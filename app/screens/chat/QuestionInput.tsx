import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Menu,
  Paper,
  Popover,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import {
  IconApps,
  IconArrowUp,
  IconChevronDown,
  IconCpu,
  IconMessagePlus,
  IconPlayerStopFilled,
  IconStarFilled,
} from '@tabler/icons-react';
import { QUERY_MAX_CHARS, type SearchScope } from '../../../common/api/chat';
import type { LlmListResponse, LlmOption } from '../../../common/api/llms';
import { chat as chatStrings, topics as topicStrings } from '../../../common/strings';
import { sendsOnEnter } from '../../chat/text';
import { APP_SOURCES, selectScope, toggleSource, type AppSource, type ScopeState } from '../../chat/sources';
import { QUERY_SOFT_LIMIT_CHARS } from '../../config';
import { chatCopy } from '../../strings';
import classes from './chat.module.css';

const SOURCE_LABELS: Record<AppSource, string> = {
  apps: chatCopy.SOURCE_APPS,
  files: chatCopy.SOURCE_FILES,
  answers: chatCopy.SOURCE_ANSWERS,
};

function SourcesPopover({
  scope,
  available,
  onChange,
}: {
  scope: ScopeState;
  available: readonly AppSource[];
  onChange(scope: ScopeState): void;
}) {
  return (
    <Popover position="top-start" shadow="md" withinPortal width={240}>
      <Popover.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          fz="xs"
          fw={500}
          leftSection={<IconApps size={14} />}
          rightSection={<IconChevronDown size={12} />}
          data-testid="sources-button"
        >
          {chatCopy.sourcesSelected(scope.selected.length, available.length)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="sources-popover">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text size="xs" fw={600} c="dimmed" tt="uppercase">
              {chatCopy.CHOOSE_SOURCES}
            </Text>
          </Group>
          {APP_SOURCES.filter((source) => available.includes(source)).map((source) => (
            <Checkbox
              key={source}
              label={SOURCE_LABELS[source]}
              checked={scope.selected.includes(source)}
              onChange={() => onChange(toggleSource(scope, source))}
            />
          ))}
          <Group justify="space-between" mt={4}>
            <Button
              variant="subtle"
              size="compact-xs"
              onClick={() => onChange({ scope: 'APPS', selected: [...available] })}
            >
              {chatCopy.SELECT_ALL}
            </Button>
            <Button
              variant="subtle"
              size="compact-xs"
              color="gray"
              onClick={() => onChange({ scope: 'APPS', selected: [] })}
            >
              {chatCopy.CLEAR_ALL}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

function modelHint(option: LlmOption): string | null {
  if (option.reason === 'NOT_CONFIGURED') return chatCopy.MODEL_NOT_CONFIGURED;
  if (option.reason === 'DISABLED_FOR_ORG') return chatCopy.MODEL_DISABLED;
  if (option.enterpriseOnly) return chatCopy.ENTERPRISE_MODEL;
  return null;
}

function ModelPicker({
  llms,
  selected,
  onSelect,
  onPaywall,
}: {
  llms: LlmListResponse | undefined;
  selected: string | null;
  onSelect(id: string): void;
  onPaywall(option: LlmOption): void;
}) {
  const options = llms?.llms ?? [];
  const current =
    options.find((option) => option.id === selected) ?? options.find((option) => option.default);
  const label = llms && !llms.generative ? chatCopy.SELECT_LLM : (current?.name ?? chatCopy.SELECT_LLM);
  return (
    <Menu position="top-end" shadow="md" withinPortal width={260}>
      <Menu.Target>
        <Tooltip label={chatCopy.EXTRACTIVE_MODEL} disabled={!llms || llms.generative} withinPortal>
          <Button
            variant="subtle"
            color="gray"
            size="compact-sm"
            fz="xs"
            fw={500}
            leftSection={<IconCpu size={14} />}
            rightSection={<IconChevronDown size={12} />}
            aria-label={chatCopy.SELECT_LLM}
            data-testid="llm-picker"
          >
            {label}
          </Button>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown className={classes.modelMenu}>
        <Menu.Label>{chatCopy.SELECT_LLM}</Menu.Label>
        {options.map((option) => {
          const paywalled = option.reason === 'PLAN_REQUIRED';
          const hint = modelHint(option);
          return (
            <Menu.Item
              key={option.id}
              disabled={!option.enabled && !paywalled}
              onClick={() => (paywalled ? onPaywall(option) : onSelect(option.id))}
              rightSection={
                option.enterpriseOnly ? (
                  <IconStarFilled size={12} color="var(--mantine-color-yellow-6)" />
                ) : null
              }
              data-testid={`llm-${option.id}`}
              data-enabled={option.enabled}
              c={option.enabled ? undefined : 'dimmed'}
            >
              <Text
                size="sm"
                fw={option.id === current?.id ? 600 : 400}
                c={option.enabled ? undefined : 'dimmed'}
              >
                {option.name}
              </Text>
              {hint && (
                <Text size="xs" c="dimmed">
                  {hint}
                </Text>
              )}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

export type QuestionInputProps = {
  text: string;
  onTextChange(text: string): void;
  onSend(): void;
  onStop(): void;
  /** An answer of this view is being generated: the button stops it. */
  generatingHere: boolean;
  /** An answer elsewhere (another topic) is being generated: sending waits for it. */
  busyElsewhere: boolean;
  newTopic: boolean;
  canStartNewTopic: boolean;
  onNewTopicChange(value: boolean): void;
  scope: ScopeState;
  available: readonly AppSource[];
  aiOnlyDisabled: boolean;
  onScopeChange(scope: ScopeState): void;
  llms: LlmListResponse | undefined;
  llm: string | null;
  onLlmChange(id: string): void;
  onPaywall(option: LlmOption): void;
  researchAvailable: boolean;
  research: boolean;
  onResearchChange(value: boolean): void;
};

/** The question box (spec asking-questions §2, §5): text, New topic, scope, Research, model, counter, send or stop. */
export function QuestionInput(props: QuestionInputProps) {
  const { text, scope } = props;
  const overSoftLimit = text.length > QUERY_SOFT_LIMIT_CHARS && scope.scope !== 'AI_ONLY';
  const newTopicTooltip = !props.canStartNewTopic
    ? chatStrings.ALREADY_ON_NEW_TOPIC
    : props.newTopic
      ? topicStrings.RESUME_PREVIOUS_TOPIC
      : topicStrings.START_NEW_TOPIC;
  const scopes: { value: SearchScope; label: string; disabled?: boolean }[] = [
    { value: 'APPS', label: chatCopy.SCOPE_APPS },
    { value: 'WEB', label: chatCopy.SCOPE_WEB },
    { value: 'AI_ONLY', label: chatCopy.SCOPE_AI_ONLY, disabled: props.aiOnlyDisabled },
  ];

  return (
    <Paper
      withBorder
      radius="lg"
      shadow="sm"
      p="xs"
      className={classes.inputBox}
      data-testid="question-input"
    >
      <Textarea
        variant="unstyled"
        value={text}
        onChange={(event) => props.onTextChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (!sendsOnEnter({ ...event, isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode }))
            return;
          event.preventDefault();
          props.onSend();
        }}
        placeholder={chatCopy.INPUT_PLACEHOLDER}
        aria-label={chatCopy.INPUT_LABEL}
        autosize
        minRows={2}
        maxRows={10}
        maxLength={QUERY_MAX_CHARS}
        px="xs"
        data-testid="question-textarea"
      />
      <Group justify="space-between" gap="xs" wrap="wrap" mt={4}>
        <Group gap="xs" wrap="wrap">
          <Tooltip label={newTopicTooltip} withinPortal>
            <Button
              variant={props.newTopic ? 'light' : 'subtle'}
              color={props.newTopic ? 'indigo' : 'gray'}
              size="compact-sm"
              fz="xs"
              fw={500}
              leftSection={<IconMessagePlus size={14} />}
              onClick={() => props.onNewTopicChange(!props.newTopic)}
              disabled={!props.canStartNewTopic}
              aria-pressed={props.newTopic}
              data-testid="new-topic"
            >
              {chatCopy.NEW_TOPIC}
            </Button>
          </Tooltip>
          <SegmentedControl
            size="xs"
            radius="md"
            value={scope.scope}
            onChange={(value) => props.onScopeChange(selectScope(value as SearchScope, props.available))}
            data={scopes}
            aria-label={chatCopy.SCOPE_LABEL}
            data-testid="scope-tabs"
          />
          {scope.scope === 'APPS' && (
            <SourcesPopover scope={scope} available={props.available} onChange={props.onScopeChange} />
          )}
          {props.researchAvailable && (
            <Switch
              size="xs"
              label={chatCopy.RESEARCH}
              checked={props.research}
              onChange={(event) => props.onResearchChange(event.currentTarget.checked)}
              data-testid="research-toggle"
            />
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {overSoftLimit && (
            <Tooltip label={chatCopy.counterTooltip(QUERY_SOFT_LIMIT_CHARS)} withinPortal>
              <Text size="xs" c="orange.7" data-testid="char-counter">
                {text.length}/{QUERY_SOFT_LIMIT_CHARS}
              </Text>
            </Tooltip>
          )}
          <ModelPicker
            llms={props.llms}
            selected={props.llm}
            onSelect={props.onLlmChange}
            onPaywall={props.onPaywall}
          />
          {props.generatingHere ? (
            <Tooltip label={chatCopy.STOP} withinPortal>
              <ActionIcon
                size="lg"
                radius="xl"
                color="dark"
                onClick={props.onStop}
                aria-label={chatCopy.STOP}
                data-testid="stop"
              >
                <IconPlayerStopFilled size={16} />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Tooltip
              label={props.busyElsewhere ? chatStrings.WAIT_FOR_CURRENT_ANSWER : chatCopy.SEND}
              withinPortal
            >
              <ActionIcon
                size="lg"
                radius="xl"
                onClick={props.onSend}
                disabled={props.busyElsewhere || text.trim() === ''}
                aria-label={chatCopy.SEND}
                data-testid="send"
              >
                <IconArrowUp size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
