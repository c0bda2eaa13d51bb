import {
  ActionIcon,
  Badge,
  Collapse,
  Group,
  Loader,
  NavLink,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import {
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconMessageCircle,
  IconMessages,
  IconSearch,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import type { TopicListItem } from '../../common/api/topics';
import {
  SCROLL_TO_TOP_AFTER_PX,
  SHARED_CONVERSATIONS_LOADED,
  SIDEBAR_TOPIC_TITLE_MAX_CHARS,
  TOPIC_SEARCH_DEBOUNCE_MS,
} from '../../common/limits';
import { shell } from '../../common/strings';
import { isFlagOn, useSignedInUser } from '../auth/session';
import { useTopicList } from '../chat/api';
import { useLiveTopicLists } from '../realtime/topic-lists';
import { truncate } from '../chat/text';
import { chatCopy, sidebarLayoutCopy } from '../strings';
import classes from './shell.module.css';

/** How far below the end of the list (px) the next page starts loading, so scrolling rarely waits for it. */
const NEXT_PAGE_MARGIN_PX = 200;

function TopicLink({
  topic,
  active,
  icon = <IconMessages size={16} />,
  testId = 'sidebar-topic',
}: {
  topic: TopicListItem;
  active: boolean;
  icon?: ReactNode;
  testId?: string;
}) {
  return (
    <NavLink
      component={Link}
      to={`/topic/${topic.topicId}`}
      active={active}
      label={truncate(topic.topicTitle || chatCopy.UNTITLED_TOPIC, SIDEBAR_TOPIC_TITLE_MAX_CHARS)}
      title={topic.topicTitle}
      leftSection={icon}
      rightSection={
        topic.unreadCount > 0 ? (
          <Badge size="xs" circle color="red" data-testid="unread-badge">
            {shell.unreadCount(topic.unreadCount)}
          </Badge>
        ) : null
      }
      className={classes.navItem}
      data-testid={testId}
    />
  );
}

function SectionToggle({ label, opened, onToggle }: { label: string; opened: boolean; onToggle(): void }) {
  return (
    <UnstyledButton onClick={onToggle} px="xs" aria-expanded={opened} className={classes.sectionToggle}>
      <Group gap={6}>
        {opened ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {label}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/**
 * Calls `onReached` whenever the returned element scrolls into view inside `root`, or is still in view once the list
 * has grown (`length`: a window tall enough for a whole page): the list then reads its next page.
 */
function useEndOfList(root: HTMLElement | null, onReached: () => void, active: boolean, length: number) {
  const end = useRef<HTMLDivElement>(null);
  const latest = useRef(onReached);
  useEffect(() => {
    latest.current = onReached;
  });
  useEffect(() => {
    const target = end.current;
    if (!target || !root || !active) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { root, rootMargin: `0px 0px ${NEXT_PAGE_MARGIN_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [root, active, length]);
  return end;
}

/**
 * The sidebar's topic lists (spec shell-and-account §2.8, §4.6): 'My topics', expandable and searchable (150 ms
 * debounce), read page after page as it scrolls, with a way back to the top once scrolled past 900 px; 'Shared with
 * me' (its first five) when the org has multiplayer on and there is something to list.
 */
export function SidebarTopics() {
  const user = useSignedInUser();
  const [mineOpened, mine] = useDisclosure(true);
  const [sharedOpened, shared] = useDisclosure(true);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), TOPIC_SEARCH_DEBOUNCE_MS);
  const myTopics = useTopicList('MY_TOPICS', debounced);
  const multiplayer = isFlagOn(user, 'multiplayerEnabled');
  const sharedTopics = useTopicList('SHARED_WITH_ME', '', multiplayer);
  useLiveTopicLists();
  const { id: openTopic } = useParams();
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [farDown, setFarDown] = useState(false);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = myTopics;
  const list = myTopics.data?.pages.flatMap((page) => page.topics) ?? [];
  const end = useEndOfList(
    scroller,
    () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    mineOpened && hasNextPage,
    list.length,
  );

  const sharedList = (sharedTopics.data?.pages[0]?.topics ?? []).slice(0, SHARED_CONVERSATIONS_LOADED);

  return (
    <Stack gap={4} mih={0} style={{ flex: 1 }}>
      <NavLink
        component={Link}
        to="/chat"
        label={chatCopy.SCREEN_TITLE}
        leftSection={<IconMessageCircle size={18} />}
        className={classes.navItem}
        mb={4}
        data-testid="sidebar-chat"
      />
      <div
        className={classes.topicLists}
        ref={setScroller}
        onScroll={(event) => setFarDown(event.currentTarget.scrollTop > SCROLL_TO_TOP_AFTER_PX)}
        data-testid="sidebar-topic-lists"
      >
        {multiplayer && sharedList.length > 0 && (
          <Stack gap={4} mb="sm" data-testid="shared-topics">
            <SectionToggle label={shell.SHARED_WITH_ME} opened={sharedOpened} onToggle={shared.toggle} />
            <Collapse expanded={sharedOpened}>
              {sharedList.map((topic) => (
                <TopicLink
                  key={topic.topicId}
                  topic={topic}
                  active={topic.topicId === openTopic}
                  icon={<IconUsers size={16} />}
                  testId="shared-topic"
                />
              ))}
            </Collapse>
          </Stack>
        )}
        <Stack gap={4} data-testid="my-topics">
          <SectionToggle label={shell.MY_TOPICS} opened={mineOpened} onToggle={mine.toggle} />
          <Collapse expanded={mineOpened}>
            <TextInput
              placeholder={shell.SEARCH_TOPICS_PLACEHOLDER}
              aria-label={shell.SEARCH_TOPICS_PLACEHOLDER}
              leftSection={<IconSearch size={14} />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              classNames={{ input: classes.searchInput }}
              mb={4}
            />
            {list.length === 0 && !myTopics.isPending && (
              <Text size="xs" c="dimmed" px="xs" py={4}>
                {chatCopy.NO_TOPICS}
              </Text>
            )}
            {list.map((topic) => (
              <TopicLink key={topic.topicId} topic={topic} active={topic.topicId === openTopic} />
            ))}
            {hasNextPage && (
              <Group ref={end} justify="center" py={6} data-testid="sidebar-topics-more">
                {isFetchingNextPage && <Loader size="xs" />}
              </Group>
            )}
          </Collapse>
        </Stack>
        {farDown && (
          <Group justify="flex-end" className={classes.toTop}>
            <ActionIcon
              variant="default"
              radius="xl"
              size={40}
              onClick={() => scroller?.scrollTo({ top: 0, behavior: 'smooth' })}
              aria-label={sidebarLayoutCopy.SCROLL_TO_TOP}
              data-testid="sidebar-scroll-top"
            >
              <IconArrowUp size={18} />
            </ActionIcon>
          </Group>
        )}
      </div>
    </Stack>
  );
}
