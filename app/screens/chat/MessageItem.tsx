import {
  ActionIcon,
  Avatar,
  Box,
  Group,
  Loader,
  Progress,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArrowRight,
  IconCheck,
  IconCopy,
  IconSparkles,
  IconThumbDown,
  IconThumbDownFilled,
  IconThumbUp,
  IconThumbUpFilled,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { responseIdOf, type Rating } from '../../../common/api/feedback';
import type { ChatMessage } from '../../../common/api/messages';
import { COPY_CONFIRMATION_MS, RELATED_SEARCHES_MAX } from '../../../common/limits';
import { chat as chatStrings, feedback as feedbackStrings } from '../../../common/strings';
import type { Exchange } from '../../chat/answer-state';
import { sendFeedback } from '../../chat/api';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { chatCopy } from '../../strings';
import { AnswerMarkdown } from './AnswerMarkdown';
import { FeedbackModal } from './FeedbackModal';
import { References } from './References';
import classes from './chat.module.css';

function CopyAction({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      notifySuccess(chatStrings.COPIED_TEXT);
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
  const base = { query_id: answer.reply_to_id, response_id: responseIdOf(answer.message_id) };

  const onThumb = async (value: 1 | -1) => {
    if (rating !== value) {
      setAsking(value);
      return;
    }
    try {
      await sendFeedback({ ...base, rating: 0, references_feedback: {} });
      setRating(0);
      notifySuccess(value === 1 ? feedbackStrings.UPVOTE_REMOVED : feedbackStrings.DOWNVOTE_REMOVED);
    } catch {
      notifyFailure(feedbackStrings.UNDO_ERROR);
    }
  };

  const submit = async (comment: string) => {
    if (asking === null) return;
    try {
      await sendFeedback({ ...base, rating: asking, comment: comment || null });
    } catch (error) {
      notifyFailure(feedbackStrings.SEND_ERROR);
      throw error;
    }
    setRating(asking);
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
      <FeedbackModal rating={asking} onClose={() => setAsking(null)} onSubmit={submit} />
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
  exchange?: Exchange;
  hideRelatedSearches: boolean;
  focused?: boolean;
  onAsk(query: string): void;
};

export function MessageItem({ message, exchange, hideRelatedSearches, focused, onAsk }: Props) {
  if (message.sender === 'USER') {
    const name = message.author?.display_name ?? message.author?.email ?? chatCopy.YOU;
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
        <Avatar src={message.author?.icon} name={name} color="initials" radius="xl" size={32} />
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Text size="sm" fw={600}>
            {name}
          </Text>
          <Text className={classes.question}>{message.messageText}</Text>
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
        {!pending && <References references={message.references} />}
        {!pending && !staticType && (
          <Group gap={2} data-testid="answer-actions">
            <CopyAction text={message.messageText} />
            <FeedbackActions answer={message} />
          </Group>
        )}
        {!pending && !hideRelatedSearches && message.status === 'SUCCESS' && (
          <RelatedSearches searches={message.relatedSearches} onAsk={onAsk} />
        )}
      </Stack>
    </Group>
  );
}
