import { VisuallyHidden } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useChatHistory } from '../chat/api';
import { opensCleared } from '../chat/new-topic';
import { askChoicesOf, OMNIBOX_PARAM, QUESTION_PARAM } from '../chat/question-address';
import { chatCopy } from '../strings';
import { ChatView } from './chat/ChatView';
import { workflowDraftOf } from './workflows/draft';

/** /chat: the member's history across topics, newest at the bottom, older pages as they scroll up. */
export function ChatScreen() {
  const history = useChatHistory();
  const [params, setParams] = useSearchParams();
  const { state } = useLocation();
  const navigate = useNavigate();
  // Opened by 'New topic' elsewhere: cleared once. The address forgets it, so a reload shows the history again.
  const [startCleared] = useState(() => opensCleared(state));
  // Opened by 'Use' on /workflows: the template starts in the box, once; the address forgets it too.
  const [draft] = useState(() => workflowDraftOf(state));
  useEffect(() => {
    if (opensCleared(state) || workflowDraftOf(state)) void navigate('.', { replace: true, state: null });
  }, [state, navigate]);
  const messages = useMemo(
    () => (history.data?.pages ?? []).flatMap((page) => page.history).reverse(),
    [history.data],
  );
  const fileDates = useMemo(
    () =>
      Object.fromEntries(
        (history.data?.pages ?? []).flatMap((page) =>
          Object.values(page.conversation_files_map).flatMap((files) =>
            files.map((file) => [file.id, file.created_at]),
          ),
        ),
      ),
    [history.data],
  );
  const question = params.get(QUESTION_PARAM);
  const initialQuestion = useMemo(
    () =>
      question?.trim()
        ? {
            query: question,
            choices: askChoicesOf(state),
            onAsked: () =>
              setParams(
                (current) => {
                  const next = new URLSearchParams(current);
                  next.delete(QUESTION_PARAM);
                  next.delete(OMNIBOX_PARAM);
                  return next;
                },
                { replace: true },
              ),
          }
        : undefined,
    [question, state, setParams],
  );
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const older = useMemo(
    () => ({ hasMore: hasNextPage, loading: isFetchingNextPage, load: () => void fetchNextPage() }),
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
  return (
    <>
      <VisuallyHidden>
        <h1>{chatCopy.SCREEN_TITLE}</h1>
      </VisuallyHidden>
      <ChatView
        messages={messages}
        fileDates={fileDates}
        conversationId={null}
        loading={history.isPending}
        older={older}
        showOnboarding
        initialQuestion={initialQuestion}
        startCleared={startCleared}
        draft={draft}
      />
    </>
  );
}
