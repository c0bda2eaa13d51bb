import {
  ActionIcon,
  Avatar,
  Button,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Paper,
  Pill,
  Popover,
  ScrollArea,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconApps,
  IconArrowUp,
  IconChevronDown,
  IconMessagePlus,
  IconPaperclip,
  IconPlayerStopFilled,
} from '@tabler/icons-react';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { Member } from '../../../common/api/members';
import { QUERY_MAX_CHARS, type SearchScope } from '../../../common/api/chat';
import type { LlmListResponse, LlmOption } from '../../../common/api/llms';
import { ReferenceSource } from '../../../common/api/messages';
import { getApp, SOURCE_FILTER_APPS, type AppShortname } from '../../../common/catalogue';
import {
  DISPLAY_NAME_MAX_CHARS,
  MEMBER_SEARCH_DEBOUNCE_MS,
  REFERENCE_TITLE_MAX_CHARS,
  SOURCE_LIST_MAX_HEIGHT_PX,
  SOURCE_NAME_MAX_CHARS,
} from '../../../common/limits';
import { ACCEPTED_UPLOAD_EXTENSIONS } from '../../../common/uploads';
import { useMentionSearch } from '../../chat/api';
import type { Attachments } from '../../chat/attachments';
import {
  activeMention,
  mentionName,
  mentionSuggestions,
  pickMention,
  type TaggedMember,
} from '../../chat/mentions';
import { apps as appStrings, chat as chatStrings, topics as topicStrings } from '../../../common/strings';
import {
  clearAll,
  countAvailable,
  countSelected,
  hasDetails,
  isAppSelected,
  scopeNotice,
  selectAll,
  selectScope,
  toggleAnswers,
  toggleApp,
  toggleFiles,
  type ScopeOptions,
  type ScopeState,
} from '../../chat/sources';
import {
  abbreviateCount,
  placeholderWordDelay,
  sendsOnEnter,
  truncate,
  typedPlaceholder,
} from '../../chat/text';
import { QUERY_SOFT_LIMIT_CHARS } from '../../config';
import { chatCopy } from '../../strings';
import { ModelPicker } from './ModelPicker';
import { WorkflowPicker } from '../workflows/WorkflowPicker';
import classes from './chat.module.css';

/** One source of the picker, with how many of its documents the member may read (counted by the server). */
function SourceCheckbox({
  label,
  checked,
  onChange,
  numDocs,
  action,
}: {
  label: string;
  checked: boolean;
  onChange(): void;
  numDocs: number | undefined;
  action?: ReactNode;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid="source-row">
      <Checkbox label={label} checked={checked} onChange={onChange} data-testid="source-option" />
      <Group gap={6} wrap="nowrap">
        {action}
        {numDocs !== undefined && (
          <Text size="xs" c="dimmed" title={chatCopy.sourceDocuments(numDocs)} data-testid="source-count">
            {abbreviateCount(numDocs)}
          </Text>
        )}
      </Group>
    </Group>
  );
}

function SourcesPopover({
  scope,
  options,
  specifyEnabled,
  onChange,
  onSpecify,
}: {
  scope: ScopeState;
  options: ScopeOptions;
  specifyEnabled: boolean;
  onChange(scope: ScopeState): void;
  onSpecify(app: string): void;
}) {
  return (
    <Popover position="top-start" shadow="md" withinPortal width={300}>
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
          {chatCopy.sourcesSelected(countSelected(scope, options), countAvailable(options))}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="sources-popover">
        <Stack gap="xs">
          <Text size="xs" fw={600} c="dimmed" tt="uppercase">
            {chatCopy.CHOOSE_SOURCES}
          </Text>
          <ScrollArea.Autosize mah={SOURCE_LIST_MAX_HEIGHT_PX} type="auto">
            <Stack gap="xs">
              {options.apps.map((app) => {
                const name = getApp(app)?.displayName ?? app;
                const specified = hasDetails(scope.details[app]);
                return (
                  <SourceCheckbox
                    key={app}
                    label={truncate(name, SOURCE_NAME_MAX_CHARS)}
                    checked={isAppSelected(scope, app)}
                    onChange={() => onChange(toggleApp(scope, options, app))}
                    numDocs={options.numDocs?.[app]}
                    action={
                      specifyEnabled && SOURCE_FILTER_APPS.has(app as AppShortname) ? (
                        <Button
                          variant={specified ? 'light' : 'subtle'}
                          size="compact-xs"
                          onClick={() => onSpecify(app)}
                          data-testid={`specify-${app}`}
                        >
                          {appStrings.SPECIFY_SOURCES}
                        </Button>
                      ) : undefined
                    }
                  />
                );
              })}
              {options.files && (
                <SourceCheckbox
                  label={chatCopy.SOURCE_FILES}
                  checked={scope.files}
                  onChange={() => onChange(toggleFiles(scope))}
                  numDocs={options.numDocs?.[ReferenceSource.files]}
                />
              )}
              {options.answers && (
                <SourceCheckbox
                  label={chatCopy.SOURCE_ANSWERS}
                  checked={scope.answers}
                  onChange={() => onChange(toggleAnswers(scope))}
                  numDocs={options.numDocs?.[ReferenceSource.verifiedAnswers]}
                />
              )}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="space-between" mt={4}>
            <Button variant="subtle" size="compact-xs" onClick={() => onChange(selectAll(scope))}>
              {appStrings.SELECT_ALL}
            </Button>
            <Button variant="subtle" size="compact-xs" color="gray" onClick={() => onChange(clearAll(scope))}>
              {appStrings.CLEAR_ALL}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
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
  scopeOptions: ScopeOptions;
  aiOnlyDisabled: boolean;
  /** The appSpecificFiltersEnabled flag: 'Specify sources' for confluence, gdrive, notion and slack. */
  specifyEnabled: boolean;
  onScopeChange(scope: ScopeState): void;
  onSpecify(app: string): void;
  attachments: Attachments;
  /** Absent where a question cannot carry files (the homepage hands only its text and choices to /chat). */
  onAttach?(files: File[]): void;
  onDetach(id: string): void;
  llms: LlmListResponse | undefined;
  llm: string | null;
  onLlmChange(id: string): void;
  onPaywall(option: LlmOption): void;
  researchAvailable: boolean;
  research: boolean;
  onResearchChange(value: boolean): void;
  /** @mention tagging (the multiplayerEnabled flag): who is tagged so far; picking someone writes @Name. */
  mentions?: {
    selfEmail: string;
    tagged: readonly TaggedMember[];
    onTag(next: { text: string; tagged: TaggedMember[] }): void;
  };
};

function MentionMenu({
  suggestions,
  highlight,
  onPick,
}: {
  suggestions: readonly Member[];
  highlight: number;
  onPick(member: Member): void;
}) {
  return (
    <Paper withBorder shadow="md" p={4} mx="xs" mb={4} role="listbox" data-testid="mention-menu">
      {suggestions.map((member, index) => (
        <UnstyledButton
          key={member.user_id}
          role="option"
          aria-selected={index === highlight}
          display="block"
          w="100%"
          p={6}
          bg={index === highlight ? 'var(--mantine-color-gray-1)' : undefined}
          style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          // mousedown, not click: the text area keeps its focus and caret
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(member);
          }}
          data-testid="mention-option"
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar src={member.icon} size="sm" radius="xl" />
            <Text size="sm" fw={500}>
              {truncate(mentionName(member), DISPLAY_NAME_MAX_CHARS)}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {member.email}
            </Text>
          </Group>
        </UnstyledButton>
      ))}
    </Paper>
  );
}

/** The @mention being typed and the colleagues it suggests; picking one writes @Name and tags them. */
function useMentions(
  text: string,
  mentions: QuestionInputProps['mentions'],
  textarea: RefObject<HTMLTextAreaElement | null>,
) {
  const [caret, setCaret] = useState(0);
  const [highlight, setHighlight] = useState(0);
  // Escape closes the menu for the @ it was open at
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const typed = mentions ? activeMention(text, caret) : null;
  const mention = typed && typed.start !== dismissedAt ? typed : null;
  const [query] = useDebouncedValue(mention?.query ?? '', MEMBER_SEARCH_DEBOUNCE_MS);
  const search = useMentionSearch(query, mention !== null);
  const suggestions =
    mention && mentions ? mentionSuggestions(search.data?.members ?? [], mention.query, mentions) : [];
  const pendingCaret = useRef<number | null>(null);

  useEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !textarea.current) return;
    pendingCaret.current = null;
    textarea.current.setSelectionRange(at, at);
  }, [text, textarea]);

  const pick = (member: Member) => {
    if (!mention || !mentions) return;
    const next = pickMention(text, mention, member, mentions.tagged);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    setHighlight(0);
    mentions.onTag({ text: next.text, tagged: next.tagged });
  };

  /** Keys the open menu takes (arrows, Enter or Tab to pick, Escape); true when the key was taken. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (suggestions.length === 0 || event.nativeEvent.isComposing) return false;
    const chosen = suggestions[Math.min(highlight, suggestions.length - 1)];
    if (event.key === 'ArrowDown') setHighlight((index) => (index + 1) % suggestions.length);
    else if (event.key === 'ArrowUp')
      setHighlight((index) => (index - 1 + suggestions.length) % suggestions.length);
    else if ((event.key === 'Enter' || event.key === 'Tab') && chosen) pick(chosen);
    else if (event.key === 'Escape') setDismissedAt(mention?.start ?? null);
    else return false;
    event.preventDefault();
    return true;
  };

  const track = (element: HTMLTextAreaElement) => {
    setCaret(element.selectionStart);
    setHighlight(0);
  };

  return { suggestions, highlight, pick, onKeyDown, track };
}

/**
 * Send, or Stop while this view's answer is generated (spec asking-questions §4 Stop). One element whatever it does,
 * so it stays where it is, the same size, through a whole streamed answer: the pointer on it is not lost.
 */
function SendOrStop(props: {
  generating: boolean;
  onSend(): void;
  onStop(): void;
  tooltip: string;
  sendDisabled: boolean;
}) {
  const { generating } = props;
  return (
    <Tooltip label={generating ? chatCopy.STOP : props.tooltip} withinPortal>
      <ActionIcon
        size={40}
        radius="xl"
        color={generating ? 'dark' : undefined}
        onClick={generating ? props.onStop : props.onSend}
        disabled={!generating && props.sendDisabled}
        aria-label={generating ? chatCopy.STOP : chatCopy.SEND}
        data-testid={generating ? 'stop' : 'send'}
      >
        {generating ? <IconPlayerStopFilled size={16} /> : <IconArrowUp size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

/** The placeholder typed out word by word once the box appears. */
function useTypedPlaceholder(full: string): string {
  const [words, setWords] = useState(0);
  const total = full.split(' ').length;
  useEffect(() => {
    if (words >= total) return;
    const timer = setTimeout(() => setWords((count) => count + 1), placeholderWordDelay(words));
    return () => clearTimeout(timer);
  }, [words, total]);
  return typedPlaceholder(full, words);
}

/** The question box (spec asking-questions §2, §5): text, New topic, scope, Research, model, counter, send or stop. */
export function QuestionInput(props: QuestionInputProps) {
  const { text, scope } = props;
  const placeholder = useTypedPlaceholder(chatCopy.INPUT_PLACEHOLDER);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const mention = useMentions(text, props.mentions, textarea);
  const overSoftLimit = text.length > QUERY_SOFT_LIMIT_CHARS && scope.scope !== 'AI_ONLY';
  const notice = scopeNotice(scope, props.llms);
  const newTopicTooltip = !props.canStartNewTopic
    ? chatStrings.ALREADY_ON_NEW_TOPIC
    : props.newTopic
      ? topicStrings.RESUME_PREVIOUS_TOPIC
      : topicStrings.START_NEW_TOPIC;
  const scopes: { value: SearchScope; label: string; disabled?: boolean }[] = [
    { value: 'APPS', label: appStrings.SCOPE_APPS },
    { value: 'WEB', label: appStrings.SCOPE_WEB },
    { value: 'AI_ONLY', label: appStrings.SCOPE_AI_ONLY, disabled: props.aiOnlyDisabled },
  ];

  return (
    <Paper
      withBorder
      radius="lg"
      shadow="sm"
      p="xs"
      className={classes.inputBox}
      data-testid="question-input"
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        if (event.dataTransfer.files.length > 0) props.onAttach?.([...event.dataTransfer.files]);
      }}
    >
      {(props.attachments.files.length > 0 || props.attachments.status === 'transit') && (
        <Group gap={6} px="xs" pt={4} data-testid="attachments">
          {props.attachments.files.map((file) => (
            <Pill
              key={file.id}
              withRemoveButton
              onRemove={() => props.onDetach(file.id)}
              removeButtonProps={{ 'aria-label': chatCopy.removeAttachment(file.name) }}
              data-testid="attachment"
            >
              {truncate(file.name, REFERENCE_TITLE_MAX_CHARS)}
            </Pill>
          ))}
          {props.attachments.status === 'transit' && <Loader size="xs" data-testid="attachments-uploading" />}
        </Group>
      )}
      {mention.suggestions.length > 0 && (
        <MentionMenu suggestions={mention.suggestions} highlight={mention.highlight} onPick={mention.pick} />
      )}
      <Textarea
        ref={textarea}
        variant="unstyled"
        value={text}
        onChange={(event) => {
          props.onTextChange(event.currentTarget.value);
          mention.track(event.currentTarget);
        }}
        onSelect={(event) => mention.track(event.currentTarget)}
        onKeyDown={(event) => {
          if (mention.onKeyDown(event)) return;
          if (!sendsOnEnter({ ...event, isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode }))
            return;
          event.preventDefault();
          props.onSend();
        }}
        placeholder={placeholder}
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
          {props.onAttach && (
            <FileButton onChange={props.onAttach} multiple accept={ACCEPTED_UPLOAD_EXTENSIONS.join(',')}>
              {(button) => (
                <Tooltip label={chatCopy.ATTACH_FILES} withinPortal>
                  <ActionIcon
                    {...button}
                    variant="subtle"
                    color="gray"
                    aria-label={chatCopy.ATTACH_FILES}
                    data-testid="attach-files"
                  >
                    <IconPaperclip size={16} />
                  </ActionIcon>
                </Tooltip>
              )}
            </FileButton>
          )}
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
            onChange={(value) => props.onScopeChange(selectScope(value as SearchScope))}
            data={scopes}
            aria-label={chatCopy.SCOPE_LABEL}
            data-testid="scope-tabs"
          />
          {scope.scope === 'APPS' && (
            <SourcesPopover
              scope={scope}
              options={props.scopeOptions}
              specifyEnabled={props.specifyEnabled}
              onChange={props.onScopeChange}
              onSpecify={props.onSpecify}
            />
          )}
          <WorkflowPicker
            llms={props.llms}
            onTextChange={props.onTextChange}
            onLlmChange={props.onLlmChange}
          />
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
          <SendOrStop
            generating={props.generatingHere}
            onSend={props.onSend}
            onStop={props.onStop}
            tooltip={
              props.busyElsewhere
                ? chatStrings.WAIT_FOR_CURRENT_ANSWER
                : notice?.blocks
                  ? notice.text
                  : chatCopy.SEND
            }
            sendDisabled={props.busyElsewhere || text.trim() === '' || notice?.blocks === true}
          />
        </Group>
      </Group>
      {notice && (
        <Text size="xs" c={notice.blocks ? 'orange.8' : 'dimmed'} px="xs" mt={4} data-testid="scope-notice">
          {notice.text}
        </Text>
      )}
    </Paper>
  );
}
