import { Box, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { LlmOption } from '../../../common/api/llms';
import type { ChatMessage } from '../../../common/api/messages';
import {
  chat as chatStrings,
  files as fileStrings,
  topics as topicStrings,
  validation,
} from '../../../common/strings';
import { useAiControls } from '../../api/ai-controls';
import { useOrg } from '../../api/org';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import {
  chatKeys,
  createSharedMessage,
  deleteTopic,
  refreshTopicLists,
  renameTopic,
  useLlms,
} from '../../chat/api';
import { sharedMessageBody, stillTagged, type TaggedMember } from '../../chat/mentions';
import {
  accessOfGroup,
  groupByTopic,
  latestConversation,
  mergeMessages,
  reconnectableAnswers,
  type ViewItem,
} from '../../chat/conversation';
import {
  ALL_SOURCES_SCOPE,
  querySourcesOf,
  scopeRefusal,
  withAppDetails,
  type ScopeState,
} from '../../chat/sources';
import { useScopeOptions } from '../../chat/scope-options';
import { NEW_TOPIC_STATE, useNewTopic } from '../../chat/new-topic';
import {
  activeExchange,
  ask,
  forgetConversation,
  reconnectPending,
  stop,
  useExchanges,
  type ExchangeHooks,
} from '../../chat/store';
import {
  attachmentsRefusal,
  attachRefusal,
  detach,
  NO_ATTACHMENTS,
  uploaded,
  uploadFailureText,
  uploading,
  type Attachments,
} from '../../chat/attachments';
import type { AskChoices } from '../../chat/question-address';
import { isBlank } from '../../chat/text';
import { chatLink } from '../../chat/connection';
import { DEMO_URL } from '../../config';
import { uploadFiles } from '../files/api';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { chatCopy } from '../../strings';
import type { WorkflowDraft } from '../workflows/draft';
import { MessageItem } from './MessageItem';
import { OnboardingMessage } from './OnboardingMessage';
import { QuestionInput } from './QuestionInput';
import { SpecifySourcesModal } from './SpecifySourcesModal';
import { TopicDivider } from './TopicDivider';
import classes from './chat.module.css';

/** How close to the bottom (px) still counts as reading the latest message, so new text keeps it in view. */
const STICK_TO_BOTTOM_PX = 120;

export type ChatViewProps = {
  /** The server's messages, oldest first. */
  messages: readonly ChatMessage[];
  /** When each uploaded file of these topics was uploaded (ISO-8601), by id: old ones carry a warning. */
  fileDates: Readonly<Record<string, string>>;
  /** Which live questions belong here: all on /chat, the topic's on /topic/{id}. */
  conversationId: string | null;
  loading: boolean;
  older?: { hasMore: boolean; loading: boolean; load(): void };
  showOnboarding: boolean;
  /** The topic page's topic: its rights and what to continue. */
  topic?: { id: string; title: string; isEditable: boolean; isDeletable: boolean };
  focusMessageId?: string;
  /**
   * A question to ask once the view is ready (the q address parameter), with the scope, model and Research chosen
   * where it was typed (the homepage); called back once asked.
   */
  initialQuestion?: { query: string; choices?: AskChoices; onAsked(): void };
  /** Open with the screen cleared for a new topic ('New topic' pressed on a topic's page). */
  startCleared?: boolean;
  /** Text (and model) to start the question box with, unsent: a workflow used from /workflows. */
  draft?: WorkflowDraft;
};

export function ChatView(props: ChatViewProps) {
  const { messages, conversationId, topic } = props;
  const user = useSignedInUser();
  const org = useOrg();
  const llms = useLlms();
  const aiControls = useAiControls();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const allExchanges = useExchanges();
  const live = useMemo(
    () =>
      conversationId === null
        ? allExchanges
        : allExchanges.filter((exchange) => exchange.answer.conversation_id === conversationId),
    [allExchanges, conversationId],
  );
  const items = useMemo(() => mergeMessages(messages, live), [messages, live]);
  const fresh = useNewTopic(items, live, props.startCleared ?? false);
  const [titles, setTitles] = useState<Record<string, string>>({});
  const groups = useMemo(() => groupByTopic(fresh.items, titles), [fresh.items, titles]);
  const previous = useMemo(
    () => (topic ? { id: topic.id, title: topic.title } : latestConversation(fresh.items)),
    [topic, fresh.items],
  );
  const continueTopic = useCallback((id: string) => navigate(`/topic/${id}`), [navigate]);

  const [text, setText] = useState(props.draft?.text ?? '');
  const newTopic = fresh.pressed;
  const multiplayer = isFlagOn(user, 'multiplayerEnabled');
  const [tagged, setTagged] = useState<TaggedMember[]>([]);
  const sendingToColleagues = useRef(false);
  const changeText = useCallback((next: string) => {
    setText(next);
    setTagged((current) => stillTagged(next, current));
  }, []);
  const scopeOptions = useScopeOptions(user);
  const [scope, setScope] = useState<ScopeState>(props.initialQuestion?.choices?.scope ?? ALL_SOURCES_SCOPE);
  const [specifying, setSpecifying] = useState<string | null>(null);
  const [attachments, setAttachments] = useState<Attachments>(NO_ATTACHMENTS);

  const attach = async (chosen: File[]) => {
    const refusal = attachRefusal(attachments, chosen);
    if (refusal) {
      notifyFailure(refusal);
      return;
    }
    setAttachments(uploading);
    notifySuccess(fileStrings.uploading(chosen.length));
    try {
      const stored = await uploadFiles({ files: chosen, visibility: 'PRIVATE', onProgress: () => undefined });
      setAttachments((current) =>
        uploaded(
          current,
          stored.documents.map((document) => ({ id: document.id, name: document.name })),
        ),
      );
      for (const failure of stored.failed) notifyFailure(uploadFailureText(failure.message, failure.name));
      notifySuccess(fileStrings.UPLOADED);
    } catch (error) {
      setAttachments((current) => uploaded(current, []));
      notifyFailure(uploadFailureText(error instanceof Error ? error.message : null, chosen[0]?.name ?? ''));
    }
  };
  const [llm, setLlm] = useState<string | null>(
    props.initialQuestion?.choices?.llm ?? props.draft?.llm ?? null,
  );
  const [research, setResearch] = useState(props.initialQuestion?.choices?.research ?? false);
  const [paywall, setPaywall] = useState<LlmOption | null>(null);
  const reconnect = isFlagOn(user, 'chatReconnect');
  const researchAvailable = isFlagOn(user, 'deepresearch') && org.data?.features.deepResearch === true;
  const active = activeExchange(allExchanges);
  const generatingHere = active !== undefined && live.includes(active);

  // The chat socket is open before the first question here, and every question reuses it.
  useEffect(() => chatLink.hold(), []);

  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const heightBeforeOlder = useRef<number | null>(null);

  const hooks = useCallback(
    (asked: string): ExchangeHooks => ({
      // The topic lists are read again once the answer is done (onFinished), when the topic has its title: read
      // here, they would compete with the answer's own work for the store on the way to its first word.
      onAccepted: (id, isNew) => {
        if (topic && isNew && id !== topic.id) navigate(`/topic/${id}`);
      },
      onRefused: (query, code, message) => {
        notifyFailure(message || chatStrings.PROCESSING_ERROR);
        setText((current) => (current === '' ? query || asked : current));
      },
      onFailure: (message) => notifyFailure(message),
      onTimeout: () => void queryClient.invalidateQueries({ queryKey: chatKeys.all }),
      onFinished: () => refreshTopicLists(queryClient),
    }),
    [navigate, queryClient, topic],
  );

  /** A message with colleagues tagged goes to them in a shared topic (POST /messages/create), not to the assistant. */
  const sendToColleagues = async (query: string, people: TaggedMember[]) => {
    if (isBlank(query) || sendingToColleagues.current) return;
    sendingToColleagues.current = true;
    const startNew = newTopic || !previous;
    const conversationId = startNew || !previous ? crypto.randomUUID() : previous.id;
    try {
      await createSharedMessage(
        sharedMessageBody({
          text: query,
          conversationId,
          sender: {
            id: user.userId,
            email: user.email,
            name: user.metadata.displayName,
            avatar: user.metadata.photoUrl,
          },
          tagged: people,
        }),
      );
    } catch {
      notifyFailure(chatStrings.SEND_MESSAGE_ERROR);
      return;
    } finally {
      sendingToColleagues.current = false;
    }
    stickToBottom.current = true;
    setText('');
    setTagged([]);
    refreshTopicLists(queryClient);
    await queryClient.invalidateQueries({ queryKey: chatKeys.all });
    if (topic && conversationId !== topic.id) navigate(`/topic/${conversationId}`);
  };

  const submit = useCallback(
    (query: string, options: { fromInput: boolean; isNewTopic?: boolean }) => {
      if (isBlank(query)) return;
      if (activeExchange()) {
        notifyFailure(validation.WAIT_FOR_PREVIOUS_ANSWER);
        return;
      }
      const attached = options.fromInput ? attachments : NO_ATTACHMENTS;
      // Attached files are a source of their own: the scope may then select nothing else.
      const refusal =
        attachmentsRefusal(attached, research) ??
        (attached.files.length === 0 ? scopeRefusal(scope, scopeOptions, research, llms.data) : null);
      if (refusal) {
        notifyFailure(refusal);
        return;
      }
      const startNew = options.isNewTopic ?? (newTopic || !previous);
      const contextualFileIds = startNew
        ? []
        : items.flatMap((item) =>
            item.message.conversation_id === previous?.id ? item.message.files.map((file) => file.id) : [],
          );
      stickToBottom.current = true;
      ask({
        query: query.trim(),
        conversationId: startNew ? null : (previous?.id ?? null),
        isNewTopic: startNew,
        topicTitle: startNew ? '' : (previous?.title ?? ''),
        sources: querySourcesOf(scope, scopeOptions),
        llm,
        deepresearch: research,
        reconnect,
        author: { email: user.email, display_name: user.metadata.displayName, icon: user.metadata.photoUrl },
        files: attached.files,
        contextualFileIds: [...new Set(contextualFileIds)],
        hooks: hooks(query),
      });
      if (options.fromInput) {
        setText('');
        setAttachments(NO_ATTACHMENTS);
      }
    },
    [
      attachments,
      hooks,
      items,
      llm,
      llms.data,
      newTopic,
      previous,
      reconnect,
      research,
      scope,
      scopeOptions,
      user,
    ],
  );

  // A stable callback for the memoised messages: `submit` changes with every streamed frame.
  const latestSubmit = useRef(submit);
  useLayoutEffect(() => {
    latestSubmit.current = submit;
  });
  const askFromMessage = useCallback(
    (query: string) => latestSubmit.current(query, { fromInput: false }),
    [],
  );

  // The q address parameter: asked once as a new topic, then the caller cleans the address.
  const initialQuestion = props.initialQuestion;
  const askedInitial = useRef(false);
  useEffect(() => {
    if (!initialQuestion || askedInitial.current || props.loading) return;
    askedInitial.current = true;
    submit(initialQuestion.query, { fromInput: false, isNewTopic: true });
    initialQuestion.onAsked();
  }, [initialQuestion, props.loading, submit]);

  // Spec §4 Reconnect: recent pending answers nobody here follows are followed again when the history loads.
  const reconnectHooks = useMemo(() => hooks(''), [hooks]);
  useEffect(() => {
    if (!reconnect || props.loading) return;
    const following = new Set(allExchanges.flatMap((exchange) => [exchange.key, exchange.answer.message_id]));
    for (const { question, answer } of reconnectableAnswers(messages, following, Date.now())) {
      reconnectPending(question, answer, reconnectHooks);
    }
    // Only on a new history, not on every streamed chunk.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [messages, reconnect, props.loading]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    stickToBottom.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
  };

  // Keep the latest text in view while it streams; keep the reading position when older messages load above.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (heightBeforeOlder.current !== null) {
      element.scrollTop += element.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
      return;
    }
    if (props.focusMessageId) return;
    if (stickToBottom.current) element.scrollTop = element.scrollHeight;
  }, [items, props.focusMessageId]);

  useEffect(() => {
    if (!props.focusMessageId || props.loading) return;
    document.getElementById(`message-${props.focusMessageId}`)?.scrollIntoView({ block: 'center' });
  }, [props.focusMessageId, props.loading]);

  // Infinite scroll upward: the sentinel above the oldest message loads the page before it.
  const sentinel = useRef<HTMLDivElement>(null);
  const older = props.older;
  useEffect(() => {
    const target = sentinel.current;
    const root = scroller.current;
    if (!target || !root || !older?.hasMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting) || older.loading) return;
        heightBeforeOlder.current = root.scrollHeight;
        older.load();
      },
      { root, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [older]);

  const onRename = async (id: string, title: string, before: string) => {
    setTitles((current) => ({ ...current, [id]: title }));
    try {
      await renameTopic(id, title);
      refreshTopicLists(queryClient);
    } catch {
      setTitles((current) => ({ ...current, [id]: before }));
      notifyFailure(topicStrings.FAILED_TO_UPDATE_TITLE);
    }
  };

  const onDelete = async (id: string) => {
    try {
      await deleteTopic(id);
    } catch (error) {
      notifyFailure(topicStrings.FAILED_TO_DELETE);
      throw error;
    }
    notifySuccess(topicStrings.DELETED);
    forgetConversation(id);
    queryClient.removeQueries({ queryKey: chatKeys.topic(id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.all });
    navigate('/chat');
  };

  const ownsGroup = (groupItems: readonly ViewItem[]) =>
    groupItems.some((item) => item.message.sender === 'USER' && item.message.author?.email === user.email);

  return (
    <Box className={classes.screen}>
      <div className={classes.scroller} ref={scroller} onScroll={onScroll} data-testid="conversation">
        <Stack gap={0} className={classes.column}>
          {older?.hasMore && !fresh.cleared && (
            <Center ref={sentinel} py="sm">
              {older.loading && (
                <Group gap="xs">
                  <Loader size="xs" />
                  <Text size="xs" c="dimmed">
                    {chatCopy.LOADING_OLDER}
                  </Text>
                </Group>
              )}
            </Center>
          )}
          {props.showOnboarding && !older?.hasMore && !props.loading && !fresh.cleared && (
            <OnboardingMessage user={user} onAsk={(query) => submit(query, { fromInput: false })} />
          )}
          {props.loading && (
            <Center py="xl">
              <Loader size="sm" />
            </Center>
          )}
          {groups.map((group, index) => {
            const pendingTopic = group.conversationId === '';
            const owner = topic ? topic.isDeletable : ownsGroup(group.items);
            return (
              <Fragment key={`${group.conversationId}-${index}`}>
                {!pendingTopic ? (
                  <TopicDivider
                    conversationId={group.conversationId}
                    access={accessOfGroup(group)}
                    title={group.title}
                    timestamp={group.timestamp}
                    canEdit={topic ? topic.isEditable : owner}
                    canDelete={owner}
                    onRename={(title) => onRename(group.conversationId, title, group.title)}
                    onDelete={() => onDelete(group.conversationId)}
                  />
                ) : (
                  <div className={classes.divider} />
                )}
                {group.items.map((item) => (
                  <MessageItem
                    key={item.exchange ? `${item.exchange.key}:answer` : item.message.message_id}
                    message={item.message}
                    exchange={item.exchange}
                    focused={item.message.message_id === props.focusMessageId}
                    hideRelatedSearches={isFlagOn(user, 'hideRelatedSearches')}
                    fileDates={props.fileDates}
                    disclaimer={aiControls.data?.disclaimer}
                    onAsk={askFromMessage}
                    onContinueTopic={
                      !topic && !pendingTopic && group.conversationId !== previous?.id
                        ? continueTopic
                        : undefined
                    }
                  />
                ))}
              </Fragment>
            );
          })}
        </Stack>
      </div>
      <div className={classes.inputArea}>
        <div className={classes.column}>
          <QuestionInput
            text={text}
            onTextChange={changeText}
            onSend={() =>
              tagged.length > 0 ? void sendToColleagues(text, tagged) : submit(text, { fromInput: true })
            }
            mentions={
              multiplayer
                ? {
                    selfEmail: user.email,
                    tagged,
                    onTag: (next) => {
                      setText(next.text);
                      setTagged(next.tagged);
                    },
                  }
                : undefined
            }
            onStop={() => active && stop(active.key)}
            generatingHere={generatingHere}
            busyElsewhere={active !== undefined && !generatingHere}
            newTopic={newTopic}
            canStartNewTopic={newTopic ? items.length > 0 : fresh.items.length > 0}
            onNewTopicChange={(value) => {
              if (!value) fresh.resume();
              else if (topic) navigate('/chat', { state: NEW_TOPIC_STATE });
              else fresh.start();
            }}
            scope={scope}
            scopeOptions={scopeOptions}
            aiOnlyDisabled={isFlagOn(user, 'aiOnlyDisabled')}
            specifyEnabled={isFlagOn(user, 'appSpecificFiltersEnabled')}
            attachments={attachments}
            onAttach={(chosen) => void attach(chosen)}
            onDetach={(id) => setAttachments((current) => detach(current, id))}
            onSpecify={setSpecifying}
            onScopeChange={(next) => {
              setScope(next);
              if (next.scope === 'AI_ONLY' && research) notifyFailure(validation.RESEARCH_NO_AI_ONLY);
            }}
            llms={llms.data}
            llm={llm}
            onLlmChange={setLlm}
            onPaywall={setPaywall}
            researchAvailable={researchAvailable}
            research={research}
            onResearchChange={(value) => {
              if (value && scope.scope === 'AI_ONLY') {
                notifyFailure(validation.RESEARCH_NO_AI_ONLY);
                return;
              }
              setResearch(value);
            }}
          />
        </div>
      </div>
      {specifying && (
        <SpecifySourcesModal
          app={specifying}
          details={scope.details[specifying]}
          onSave={(details) =>
            setScope((current) => withAppDetails(current, scopeOptions, specifying, details))
          }
          onClose={() => setSpecifying(null)}
        />
      )}
      <Modal
        opened={paywall !== null}
        onClose={() => setPaywall(null)}
        title={chatCopy.UPGRADE_TITLE}
        centered
      >
        <Stack>
          <Text size="sm">{chatCopy.UPGRADE_TEXT}</Text>
          <Group justify="flex-end">
            <Button component="a" href={DEMO_URL} target="_blank" rel="noopener noreferrer">
              {chatCopy.CONTACT_SALES}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Box>
  );
}
