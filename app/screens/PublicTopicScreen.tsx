import { Anchor, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { PRODUCT_NAME } from '../../common/strings';
import { loginPathFor } from '../auth/redirect';
import { useTokens } from '../auth/session';
import { chatQuestionPath } from '../chat/question-address';
import { publicTopicCopy } from '../strings';
import { MessageItem } from './chat/MessageItem';
import { PromoFooter } from './public/PromoFooter';
import { isMissingTopic, usePublicTopic } from './public/public-topic-query';
import { formatTopicTimestamp } from './public/timestamp';

const NO_FILE_DATES: Readonly<Record<string, string>> = {};

/**
 * /topic/{id}/{msgId?} for anyone the topic is not otherwise open to (spec §2.6): a visitor signed out, or a
 * member of another workspace. The title and when it started, the messages read-only (scrolled to msgId), and the
 * promotion footer. The server sends only what anyone may read: references to public documents, and no answer
 * text drawn from anything else.
 */
export function PublicTopicScreen() {
  const { id = '', msgId } = useParams();
  const signedIn = useTokens() !== null;
  const topic = usePublicTopic(id);
  const navigate = useNavigate();
  const loaded = topic.data !== undefined;

  useEffect(() => {
    if (!loaded || !msgId) return;
    document.getElementById(`message-${msgId}`)?.scrollIntoView({ block: 'center' });
  }, [loaded, msgId]);

  // A related search is a new question: asked in /chat, after signing in when needed.
  const ask = useCallback(
    (query: string) => {
      const path = chatQuestionPath(query);
      void navigate(signedIn ? path : loginPathFor(path, ''));
    },
    [navigate, signedIn],
  );

  // Spec §5 and §8: a failed load sends the user to /chat. A visitor signed out would only meet the sign-in page
  // there, so they are told on the page when there is no such public topic.
  if (topic.isError && (signedIn || !isMissingTopic(topic.error))) return <Navigate to="/chat" replace />;

  return (
    <Container size={820} py="lg">
      <Stack gap="xl">
        <Group justify="space-between">
          <Anchor component={Link} to={signedIn ? '/' : '/login'} fw={700} size="lg" underline="never">
            {PRODUCT_NAME}
          </Anchor>
        </Group>
        {topic.isPending && <Loader type="dots" aria-label={publicTopicCopy.LOADING} />}
        {topic.isError && (
          <Stack gap="xs" data-testid="public-topic-missing">
            <Title order={1} size="h2">
              {publicTopicCopy.NOT_FOUND_HEADING}
            </Title>
            <Text c="dimmed">{publicTopicCopy.NOT_FOUND_TEXT}</Text>
          </Stack>
        )}
        {topic.data && (
          <>
            <Stack gap={4} component="header">
              <Title order={1} size="h2" data-testid="public-topic-title">
                {topic.data.topic_title}
              </Title>
              <Text size="sm" c="dimmed" data-testid="public-topic-time">
                {formatTopicTimestamp(topic.data.conversation_timestamp)}
              </Text>
            </Stack>
            <Stack gap="lg" component="section" aria-label={publicTopicCopy.MESSAGES_LABEL}>
              {topic.data.messages.map((message) => (
                <MessageItem
                  key={message.message_id}
                  message={message}
                  fileDates={NO_FILE_DATES}
                  hideRelatedSearches={false}
                  focused={message.message_id === msgId}
                  publicView
                  onAsk={ask}
                />
              ))}
            </Stack>
          </>
        )}
        <PromoFooter signedIn={signedIn} />
      </Stack>
    </Container>
  );
}
