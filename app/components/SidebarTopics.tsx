import {
  Badge,
  Collapse,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import {
  IconChevronDown,
  IconChevronRight,
  IconMessageCircle,
  IconMessages,
  IconSearch,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { SIDEBAR_TOPIC_TITLE_MAX_CHARS, TOPIC_SEARCH_DEBOUNCE_MS } from '../../common/limits';
import { shell } from '../../common/strings';
import { useMyTopics } from '../chat/api';
import { truncate } from '../chat/text';
import { chatCopy } from '../strings';

/** 'My topics' (spec shell-and-account §2.8): expandable, searchable (150 ms debounce), with unread badges. */
export function SidebarTopics() {
  const [opened, toggle] = useDisclosure(true);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), TOPIC_SEARCH_DEBOUNCE_MS);
  const topics = useMyTopics(debounced);
  const { id: openTopic } = useParams();
  const list = topics.data?.topics ?? [];

  return (
    <Stack gap={4} mih={0} style={{ flex: 1 }} data-testid="my-topics">
      <NavLink
        component={Link}
        to="/chat"
        label={chatCopy.SCREEN_TITLE}
        leftSection={<IconMessageCircle size={18} />}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
        mb={4}
        data-testid="sidebar-chat"
      />
      <UnstyledButton onClick={toggle.toggle} px="xs" aria-expanded={opened}>
        <Group gap={6}>
          {opened ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {shell.MY_TOPICS}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened} style={{ minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <TextInput
          size="xs"
          placeholder={shell.SEARCH_TOPICS_PLACEHOLDER}
          aria-label={shell.SEARCH_TOPICS_PLACEHOLDER}
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          mb={4}
        />
        <ScrollArea.Autosize mah="calc(100dvh - 320px)" type="hover">
          {list.length === 0 && !topics.isPending && (
            <Text size="xs" c="dimmed" px="xs" py={4}>
              {chatCopy.NO_TOPICS}
            </Text>
          )}
          {list.map((topic) => (
            <NavLink
              key={topic.topicId}
              component={Link}
              to={`/topic/${topic.topicId}`}
              active={topic.topicId === openTopic}
              label={truncate(topic.topicTitle || chatCopy.UNTITLED_TOPIC, SIDEBAR_TOPIC_TITLE_MAX_CHARS)}
              title={topic.topicTitle}
              leftSection={<IconMessages size={16} />}
              rightSection={
                topic.unreadCount > 0 ? (
                  <Badge size="xs" circle color="red" data-testid="unread-badge">
                    {shell.unreadCount(topic.unreadCount)}
                  </Badge>
                ) : null
              }
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
              py={6}
              data-testid="sidebar-topic"
            />
          ))}
        </ScrollArea.Autosize>
      </Collapse>
    </Stack>
  );
}
