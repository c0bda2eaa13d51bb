import {
  ActionIcon,
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Collapse,
  Group,
  Loader,
  Progress,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowForwardUp,
  IconArrowRight,
  IconCheck,
  IconChevronDown,
  IconChevronRight,
  IconCopy,
  IconFileText,
  IconSparkles,
  IconThumbDown,
  IconThumbDownFilled,
  IconThumbUp,
  IconThumbUpFilled,
  IconWorld,
} from '@tabler/icons-react';
import { memo, useEffect, useState } from 'react';
import { responseIdOf, type Rating } from '../../../common/api/feedback';
import type { ChatMessage, DebugLogs, Reference } from '../../../common/api/messages';
import {
  COPY_CONFIRMATION_MS,
  DISPLAY_NAME_MAX_CHARS,
  REFERENCE_TITLE_MAX_CHARS,
  RELATED_SEARCHES_MAX,
} from '../../../common/limits';
import {
  chat as chatStrings,
  feedback as feedbackStrings,
  files as fileStrings,
  topics as topicStrings,
} from '../../../common/strings';
import type { Exchange } from '../../chat/answer-state';
import { sendFeedback } from '../../chat/api';
import { answerClipboardText } from '../../chat/copy';
import { debugRows, formatDuration } from '../../chat/debug';
import { referenceVotesUpdate, type ReferenceVotes } from '../../chat/feedback';
import { truncate } from '../../chat/text';
import { ReferencePreviewProvider } from '../../components/preview/ReferencePreview';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { chatCopy } from '../../strings';
import { isPastAgeWarning } from '../files/checks';
import { SaveAsWorkflowAction } from '../workflows/SaveAsWorkflow';
import { AnswerMarkdown } from './AnswerMarkdown';
import { FeedbackModal } from './FeedbackModal';
import { References, sourceLabel } from './References';
import classes from './chat.module.css';

function CopyAction({ text, references }: { text: string; references: readonly Reference[] }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      const copy = answerClipboardText(text, references);
      await navigator.clipboard.writeText(copy.text);
      setCopied(true);
      notifySuccess(copy.withReferences ? chatStrings.COPIED_TEXT_AND_REFERENCES : chatStrings.COPIED_TEXT);
    } catch {
      notifyFailure(chatStrings.FAILED_TO_COPY);
    }
  };
  return (
    <Tooltip label={copied ? chatStrings.COPIED : chatCopy.COPY} withinPortal>
      <ActionIcon
        variant="subtle"
        color={copied ? 'teal' : 'gray'}
        onClick={() => void copy()}
        aria-label={copied ? chatStrings.COPIED : chatCopy.COPY}
        data-testid="copy-answer"
      >
        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

function FeedbackActions({ answer }: { answer: ChatMessage }) {
  const [rating, setRating] = useState<Rating>(answer.extraData.messageFeedback?.rating ?? 0);
  const [asking, setAsking] = useState<1 | -1 | null>(null);
  const [savedVotes, setSavedVotes] = useState<ReferenceVotes>(
    answer.extraData.messageFeedback?.references_feedback ?? {},
  );
  const base = { query_id: answer.reply_to_id, response_id: responseIdOf(answer.message_id) };

  const onThumb = async (value: 1 | -1) => {
    if (rating !== value) {
      setAsking(value);
      return;
    }
    try {
      await sendFeedback({ ...base, rating: 0, references_feedback: {} });
      setRating(0);
      setSavedVotes({});
      notifySuccess(value === 1 ? feedbackStrings.UPVOTE_REMOVED : feedbackStrings.DOWNVOTE_REMOVED);
    } catch {
      notifyFailure(feedbackStrings.UNDO_ERROR);
    }
  };

  const submit = async (comment: string, referenceVotes: ReferenceVotes) => {
    if (asking === null) return;
    try {
      await sendFeedback({
        ...base,
        rating: asking,
        comment: comment || null,
        references_feedback: referenceVotesUpdate(savedVotes, referenceVotes),
      });
    } catch (error) {
      notifyFailure(feedbackStrings.SEND_ERROR);
      throw error;
    }
    setRating(asking);
    setSavedVotes(referenceVotes);
    setAsking(null);
    notifySuccess(feedbackStrings.SAVED);
  };

  return (
    <>
      <Tooltip label={chatCopy.THUMBS_UP} withinPortal>
        <ActionIcon
          variant="subtle"
          color={rating === 1 ? 'indigo' : 'gray'}
          onClick={() => void onThumb(1)}
          aria-label={chatCopy.THUMBS_UP}
          aria-pressed={rating === 1}
          data-testid="thumbs-up"
        >
          {rating === 1 ? <IconThumbUpFilled size={16} /> : <IconThumbUp size={16} />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label={chatCopy.THUMBS_DOWN} withinPortal>
        <ActionIcon
          variant="subtle"
          color={rating === -1 ? 'red' : 'gray'}
          onClick={() => void onThumb(-1)}
          aria-label={chatCopy.THUMBS_DOWN}
          aria-pressed={rating === -1}
          data-testid="thumbs-down"
        >
          {rating === -1 ? <IconThumbDownFilled size={16} /> : <IconThumbDown size={16} />}
        </ActionIcon>
      </Tooltip>
      <FeedbackModal
        // a new modal per opening, so it starts from the votes saved by the last rating
        key={asking ?? 'closed'}
        rating={asking}
        references={answer.references}
        savedVotes={savedVotes}
        onClose={() => setAsking(null)}
        onSubmit={submit}
      />
    </>
  );
}

function RelatedSearches({ searches, onAsk }: { searches: readonly string[]; onAsk(query: string): void }) {
  if (searches.length === 0) return null;
  return (
    <Stack gap={4} data-testid="related-searches">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {chatCopy.RELATED}
      </Text>
      {searches.slice(0, RELATED_SEARCHES_MAX).map((search) => (
        <UnstyledButton key={search} className={classes.related} onClick={() => onAsk(search)}>
          <Group gap={8} wrap="nowrap">
            <IconArrowRight size={14} />
            <Text size="sm">{search}</Text>
          </Group>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/**
 * Web mode: the pages read while the answer is made, then how many were read and from which sites. A saved answer
 * carries them in its extraData, so they are still there after a reload.
 */
function WebPages({ exchange, message }: { exchange: Exchange | undefined; message: ChatMessage }) {
  const webPages = exchange?.webPages ?? message.extraData.webViewUrls ?? [];
  const webSummary = exchange?.webSummary ?? message.extraData.allWebViewUrlsSummary ?? null;
  if (webPages.length === 0 && !webSummary) return null;
  return (
    <Stack gap={4} data-testid="web-pages">
      <Text size="xs" c="dimmed" data-testid="web-pages-summary">
        {webSummary
          ? chatCopy.webSummary(webSummary.count, webSummary.domains)
          : chatCopy.webPagesRead(webPages.length)}
      </Text>
      {webPages.length > 0 && (
        <Group gap={6}>
          {webPages.map((page) => (
            <Tooltip key={page.url} label={page.title} withinPortal openDelay={200}>
              <Anchor
                href={page.url}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
                className={classes.webPage}
                data-testid="web-page"
              >
                <IconWorld size={12} /> {truncate(page.title, REFERENCE_TITLE_MAX_CHARS)} · {hostOf(page.url)}
              </Anchor>
            </Tooltip>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** The stages the answer went through, their times and the documents retrieved: folded until asked for. */
function DebugLogsPanel({ logs }: { logs: DebugLogs }) {
  const [opened, setOpened] = useState(false);
  return (
    <Stack gap={4} data-testid="debug-logs">
      <UnstyledButton onClick={() => setOpened((value) => !value)} aria-expanded={opened}>
        <Group gap={4}>
          {opened ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />}
          <Text size="xs" c="dimmed">
            {chatCopy.DEBUG_LOGS}
            {logs.execution_time !== null && ` · ${formatDuration(logs.execution_time)}`}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened}>
        <Stack gap={2} className={classes.debugLogs}>
          {debugRows(logs).map((row, index) => (
            <Text key={`${row.stage}-${index}`} size="xs" ff="monospace" data-testid="debug-stage">
              {formatDuration(row.atMs).padStart(8)} {row.stage}
              {row.detail ? ` – ${row.detail}` : ''} (+{formatDuration(row.sinceLastMs)})
            </Text>
          ))}
          {logs.doc_data.length > 0 && (
            <Text size="xs" c="dimmed" mt={4}>
              {chatCopy.debugDocuments(logs.doc_data.length)}
            </Text>
          )}
          {logs.doc_data.map((doc) => (
            <Text key={doc.id} size="xs" ff="monospace">
              {doc.score === null ? '   ' : `#${doc.score}`.padStart(3)} {sourceLabel(doc.source)} ·{' '}
              {doc.title}
            </Text>
          ))}
        </Stack>
      </Collapse>
    </Stack>
  );
}

function StageProgress({ exchange }: { exchange: Exchange }) {
  return (
    <Stack gap={6} maw={360} data-testid="answer-stage">
      <Group gap={8}>
        <Loader size={14} type="dots" />
        <Text size="sm" c="dimmed" data-testid="stage-label">
          {exchange.stageLabel ?? chatStrings.UNDERSTANDING_QUESTION}
        </Text>
      </Group>
      <Progress
        value={exchange.progress}
        size="xs"
        radius="xl"
        animated
        aria-label={exchange.stageLabel ?? ''}
        data-testid="answer-progress"
        data-progress={exchange.progress}
      />
    </Stack>
  );
}

type Props = {
  message: ChatMessage;
  fileDates: Readonly<Record<string, string>>;
  exchange?: Exchange;
  hideRelatedSearches: boolean;
  focused?: boolean;
  /** Read through a public link: no feedback, and previews show only what the answer cited. */
  publicView?: boolean;
  onAsk(query: string): void;
  /** Present on answers of an earlier topic on /chat: 'Continue Topic' opens that topic to go on there. */
  onContinueTopic?(conversationId: string): void;
  /** The org's disclaimer (AI controls), in small print under each finished answer. */
  disclaimer?: string | null;
};

/**
 * Memoised: a streamed frame changes one exchange, and only its message renders again, not the whole history. An
 * answer's citations and reference chips open its references in one preview panel.
 */
export const MessageItem = memo(function MessageItem(props: Props) {
  if (props.message.sender === 'USER') return <MessageContent {...props} />;
  return (
    <ReferencePreviewProvider sourceName={sourceLabel} withDocumentText={!props.publicView}>
      <MessageContent {...props} />
    </ReferencePreviewProvider>
  );
});

function MessageContent({
  message,
  exchange,
  hideRelatedSearches,
  focused,
  publicView = false,
  onAsk,
  onContinueTopic,
  fileDates,
  disclaimer,
}: Props) {
  if (message.sender === 'USER') {
    const fullName = message.author?.display_name ?? message.author?.email ?? chatCopy.YOU;
    const name = truncate(fullName, DISPLAY_NAME_MAX_CHARS);
    return (
      <Group
        align="flex-start"
        gap="sm"
        wrap="nowrap"
        className={classes.message}
        data-focused={focused || undefined}
        data-testid="user-message"
        id={`message-${message.message_id}`}
      >
        <Avatar src={message.author?.icon} name={fullName} color="initials" radius="xl" size={32} />
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Group gap={4} wrap="nowrap">
            <Text size="sm" fw={600} title={fullName}>
              {name}
            </Text>
            {!publicView && <SaveAsWorkflowAction question={message.messageText} />}
          </Group>
          <Text className={classes.question}>{message.messageText}</Text>
          {message.files.length > 0 && (
            <Group gap={6} data-testid="message-files">
              {message.files.map((file) => {
                const uploadedAt = fileDates[file.id];
                const old = uploadedAt !== undefined && isPastAgeWarning(uploadedAt);
                return (
                  <Tooltip key={file.id} label={old ? fileStrings.AGE_WARNING : file.title} withinPortal>
                    <Badge
                      variant="light"
                      color={old ? 'orange' : 'gray'}
                      radius="sm"
                      leftSection={old ? <IconAlertTriangle size={12} /> : <IconFileText size={12} />}
                      data-testid="message-file"
                      data-old={old || undefined}
                    >
                      {truncate(file.title, REFERENCE_TITLE_MAX_CHARS)}
                    </Badge>
                  </Tooltip>
                );
              })}
            </Group>
          )}
        </Stack>
      </Group>
    );
  }

  const pending = message.status === 'PENDING';
  const staticType = message.extraData.staticAnswerType;
  const hasText = message.messageText.trim() !== '';
  return (
    <Group
      align="flex-start"
      gap="sm"
      wrap="nowrap"
      className={classes.message}
      data-focused={focused || undefined}
      data-testid="assistant-message"
      data-status={message.status}
      id={`message-${message.message_id}`}
    >
      <Avatar color="indigo" variant="filled" radius="xl" size={32}>
        <IconSparkles size={18} />
      </Avatar>
      <Stack gap="sm" miw={0} style={{ flex: 1 }}>
        <Text size="sm" fw={600}>
          {message.bot_name ?? chatCopy.ASSISTANT}
        </Text>
        {pending && exchange && !hasText && <StageProgress exchange={exchange} />}
        {pending && exchange && hasText && (
          <Text size="xs" c="dimmed" data-testid="stage-label">
            {exchange.stageLabel}
          </Text>
        )}
        {pending && !exchange && !hasText && <Loader size="sm" type="dots" />}
        {staticType === 'stopped' || staticType === 'failed' || staticType === 'rate_limited' ? (
          <Text
            size="sm"
            c={staticType === 'stopped' ? 'dimmed' : 'red.7'}
            fs={staticType === 'stopped' ? 'italic' : undefined}
            data-testid="answer-static"
          >
            {message.messageText}
          </Text>
        ) : (
          hasText && (
            <Box data-testid="answer-text">
              <AnswerMarkdown
                text={message.messageText}
                references={message.references}
                streaming={pending}
              />
            </Box>
          )
        )}
        <WebPages exchange={exchange} message={message} />
        {!pending && <References references={message.references} />}
        {!pending && !staticType && hasText && disclaimer && (
          <Text size="xs" c="dimmed" className={classes.disclaimer} data-testid="answer-disclaimer">
            {disclaimer}
          </Text>
        )}
        {!pending && !staticType && (
          <Group gap={2} data-testid="answer-actions">
            <CopyAction text={message.messageText} references={message.references} />
            {!publicView && <FeedbackActions answer={message} />}
            {onContinueTopic && (
              <Button
                variant="subtle"
                color="gray"
                size="compact-sm"
                fz="xs"
                leftSection={<IconArrowForwardUp size={14} />}
                onClick={() => onContinueTopic(message.conversation_id)}
                data-testid="continue-topic"
              >
                {topicStrings.CONTINUE_TOPIC}
              </Button>
            )}
          </Group>
        )}
        {!pending && !hideRelatedSearches && message.status === 'SUCCESS' && (
          <RelatedSearches searches={message.relatedSearches} onAsk={onAsk} />
        )}
        {!pending && message.debugLogs && <DebugLogsPanel logs={message.debugLogs} />}
      </Stack>
    </Group>
  );
}
