import {
  Alert,
  Avatar,
  Button,
  Group,
  Loader,
  Modal,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLink, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TopicAccess } from '../../../common/api/messages';
import {
  topicShareCheckResponseSchema,
  type TopicMember,
  type TopicMembersResponse,
} from '../../../common/api/topics';
import {
  MEMBER_SEARCH_DEBOUNCE_MS,
  SHARE_MEMBER_LIST_MAX_HEIGHT_PX,
  SHARE_MODAL_WIDTH_PX,
} from '../../../common/limits';
import { shell, topics as topicStrings } from '../../../common/strings';
import { apiRequest } from '../../api/client';
import { useOrg } from '../../api/org';
import { isFlagOn, useSignedInUser } from '../../auth/session';
import {
  addTopicMember,
  chatKeys,
  refreshTopicLists,
  updateTopic,
  useMemberSearch,
  useTopicMembers,
} from '../../chat/api';
import {
  accessChangeOf,
  accessLevelOf,
  memberSuggestions,
  offeredAccessLevels,
  topicLink,
  type AccessLevel,
} from '../../chat/share';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { chatCopy } from '../../strings';

const LEVEL_LABELS: Record<AccessLevel, string> = {
  INVITE_ONLY: chatCopy.ACCESS_INVITE_ONLY,
  ORG: chatCopy.ACCESS_WORKSPACE,
  PUBLIC: chatCopy.ACCESS_PUBLIC,
};

const LEVEL_HINTS: Record<AccessLevel, string> = {
  INVITE_ONLY: chatCopy.ACCESS_INVITE_ONLY_HINT,
  ORG: chatCopy.ACCESS_WORKSPACE_HINT,
  PUBLIC: chatCopy.ACCESS_PUBLIC_HINT,
};

function MemberRow({ member }: { member: Pick<TopicMember, 'email' | 'display_name' | 'icon' | 'role'> }) {
  const name = member.display_name || member.email || shell.INVITED_USER;
  return (
    <Group justify="space-between" wrap="nowrap" py={4} data-testid="share-member">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Avatar src={member.icon} name={name} color="initials" size={28} radius="xl" />
        <Stack gap={0} miw={0}>
          <Text size="sm" truncate>
            {name}
          </Text>
          {member.email && member.display_name && (
            <Text size="xs" c="dimmed" truncate>
              {member.email}
            </Text>
          )}
        </Stack>
      </Group>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {member.role === 'CREATOR' ? topicStrings.OWNER : topicStrings.CAN_EDIT}
      </Text>
    </Group>
  );
}

/** Adding colleagues (multiplayer): search the org's members, add one as an editor, roll back if refused. */
function MembersSection({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const members = useTopicMembers(conversationId);
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const found = useMemberSearch(debounced);
  const [adding, setAdding] = useState<string | null>(null);

  useEffect(() => {
    if (members.isError) notifyFailure(topicStrings.FAILED_TO_LOAD_MEMBERS);
  }, [members.isError]);

  const listed: TopicMember[] = members.data ? members.data.members : [];
  const settled = debounced !== '' && debounced === text.trim() && found.isSuccess && !found.isFetching;
  const suggestions =
    debounced === text.trim() ? memberSuggestions(found.data?.members ?? [], debounced, listed) : [];

  const add = async (email: string, name: string | null, icon: string | null) => {
    const key = chatKeys.members(conversationId);
    const before = queryClient.getQueryData<TopicMembersResponse>(key);
    // Shown at once; taken out again if the server refuses.
    if (before) {
      const pending: TopicMember = {
        email,
        display_name: name,
        icon,
        user_id: null,
        role: 'EDITOR',
        conversation_id: conversationId,
      };
      queryClient.setQueryData<TopicMembersResponse>(key, {
        ...before,
        members: [...before.members, pending],
      });
    }
    setText('');
    setAdding(email);
    try {
      const after = await addTopicMember(conversationId, email);
      queryClient.setQueryData(key, after);
      refreshTopicLists(queryClient);
    } catch {
      if (before) queryClient.setQueryData(key, before);
      notifyFailure(topicStrings.failedToAddMember(email));
    } finally {
      setAdding(null);
    }
  };

  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {chatCopy.SHARE_MEMBERS}
      </Text>
      <TextInput
        size="sm"
        leftSection={<IconSearch size={14} />}
        rightSection={adding || (found.isFetching && debounced) ? <Loader size="xs" /> : null}
        placeholder={chatCopy.SHARE_SEARCH_PLACEHOLDER}
        aria-label={chatCopy.SHARE_SEARCH_PLACEHOLDER}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        data-testid="share-member-search"
      />
      {settled && suggestions.length === 0 && (
        <Text size="xs" c="dimmed" data-testid="share-no-match">
          {chatCopy.SHARE_NO_MATCH}
        </Text>
      )}
      {suggestions.length > 0 && (
        <Stack gap={0} data-testid="share-suggestions">
          {suggestions.map((member) => (
            <UnstyledButton
              key={member.user_id}
              onClick={() => void add(member.email, member.name, member.icon)}
              px="xs"
              py={4}
              data-testid="share-suggestion"
            >
              <Group gap="xs" wrap="nowrap">
                <Avatar
                  src={member.icon}
                  name={member.name ?? member.email}
                  color="initials"
                  size={24}
                  radius="xl"
                />
                <Text size="sm">{member.name ?? shell.INVITED_USER}</Text>
                <Text size="xs" c="dimmed">
                  {member.email}
                </Text>
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      )}
      <ScrollArea.Autosize mah={SHARE_MEMBER_LIST_MAX_HEIGHT_PX} type="auto">
        {members.isPending ? (
          <Loader size="sm" />
        ) : (
          listed.map((member) => <MemberRow key={member.email ?? member.user_id} member={member} />)
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
}

type Props = {
  conversationId: string;
  access: TopicAccess;
  onClose(): void;
};

/**
 * Share settings of a topic: its access level, its members (multiplayer) and its link. Mounted only while open, so
 * each opening starts from the topic's access as the view knows it.
 */
export function ShareDialog({ conversationId, access, onClose }: Props) {
  const user = useSignedInUser();
  const org = useOrg();
  const queryClient = useQueryClient();
  const [level, setLevel] = useState<AccessLevel>(() => accessLevelOf(access));
  const [saving, setSaving] = useState(false);
  // a wider level whose audience cannot read every source the answers cite, waiting for the owner to confirm
  const [unconfirmed, setUnconfirmed] = useState<Exclude<AccessLevel, 'INVITE_ONLY'> | null>(null);
  const publicAllowed = isFlagOn(user, 'publicTopics') && org.data?.publicTopicsEnabled === true;
  const levels = offeredAccessLevels(publicAllowed || level === 'PUBLIC');
  // the server says who may change the level and whether an audience would miss sources the answers cite
  const shareCheck = useQuery({
    queryKey: [...chatKeys.topic(conversationId), 'share-check'],
    queryFn: ({ signal }) =>
      apiRequest(`topics/topic/${encodeURIComponent(conversationId)}/share_check`, {
        schema: topicShareCheckResponseSchema,
        signal,
      }),
  });

  const choose = async (next: AccessLevel) => {
    if (next === level) return;
    const check = shareCheck.data ?? (await shareCheck.refetch()).data;
    if (next !== 'INVITE_ONLY' && check?.narrower_sources[next]) {
      setUnconfirmed(next);
      return;
    }
    await apply(next);
  };

  const apply = async (next: AccessLevel) => {
    const before = level;
    setUnconfirmed(null);
    setLevel(next);
    setSaving(true);
    try {
      await updateTopic(conversationId, accessChangeOf(next));
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
    } catch {
      setLevel(before);
      notifyFailure(shell.DEFAULT_ERROR);
    } finally {
      setSaving(false);
    }
  };

  const copyLink = async () => {
    try {
      if (!conversationId) throw new Error('no topic to link to');
      await navigator.clipboard.writeText(topicLink(window.location.origin, conversationId));
      notifySuccess(topicStrings.COPIED_LINK);
    } catch {
      notifyFailure(topicStrings.FAILED_TO_COPY_LINK);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={chatCopy.SHARE_TITLE}
      size={SHARE_MODAL_WIDTH_PX}
      centered
      data-testid="share-dialog"
    >
      <Stack>
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            {chatCopy.SHARE_ACCESS}
          </Text>
          <SegmentedControl
            fullWidth
            value={unconfirmed ?? level}
            disabled={saving || shareCheck.data?.may_share === false}
            onChange={(value) => void choose(value as AccessLevel)}
            data={levels.map((value) => ({
              value,
              label: LEVEL_LABELS[value],
              disabled: value === 'PUBLIC' && !publicAllowed,
            }))}
            data-testid="share-access"
          />
          <Text size="xs" c="dimmed" data-testid="share-access-hint">
            {LEVEL_HINTS[unconfirmed ?? level]}
          </Text>
          {unconfirmed && (
            <Alert color="yellow" variant="light" data-testid="share-narrower-sources">
              <Stack gap="xs">
                <Text size="sm">{chatCopy.SHARE_NARROWER_SOURCES_WARNING}</Text>
                <Group gap="xs">
                  <Button size="xs" color="yellow" onClick={() => void apply(unconfirmed)}>
                    {chatCopy.SHARE_ANYWAY}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setUnconfirmed(null)}>
                    {chatCopy.CANCEL}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
        </Stack>
        {isFlagOn(user, 'multiplayerEnabled') && <MembersSection conversationId={conversationId} />}
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconLink size={16} />}
            onClick={() => void copyLink()}
            data-testid="share-copy-link"
          >
            {chatCopy.COPY_LINK}
          </Button>
          <Button variant="default" onClick={onClose}>
            {chatCopy.DONE}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
