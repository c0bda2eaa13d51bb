import {
  ActionIcon,
  Alert,
  Avatar,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconDots, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { MEMBERS_PAGE_SIZE, MEMBER_STATUSES } from '../../../common/api/members';
import type { Member, MemberAction, MemberStatus } from '../../../common/api/members';
import { MEMBER_SEARCH_DEBOUNCE_MS } from '../../../common/limits';
import { shell } from '../../../common/strings';
import { serverMessageOf } from '../../api/errors';
import { MEMBERS_QUERY_KEY, membersApi } from '../../api/members';
import { useSignedInUser } from '../../auth/session';
import { InviteMembersDialog } from '../../components/invite/InviteMembersDialog';
import { notifyFailure, notifySuccess } from '../../components/toast';
import { MEMBER_STATUS_LABELS, inviteCopy, membersCopy } from '../../strings';
import { actionsFor } from './member-actions';

const STATUS_COLORS: Record<MemberStatus, string> = {
  SIGNED_UP: 'teal',
  INVITED: 'indigo',
  CREATED: 'gray',
  BLOCKED: 'orange',
  DELETED: 'red',
};

const ACTION_LABELS: Record<MemberAction, string> = {
  make_admin: membersCopy.MAKE_ADMIN,
  remove_admin: membersCopy.REMOVE_ADMIN,
  block: membersCopy.BLOCK,
  unblock: membersCopy.UNBLOCK,
  delete: membersCopy.DELETE,
};

const DESTRUCTIVE: ReadonlySet<MemberAction> = new Set(['block', 'delete', 'remove_admin']);

/** /admin/members/{status?}: a status in the address (e.g. /admin/members/invited) preselects the filter. */
function statusFromPath(path: string | undefined): MemberStatus | null {
  const wanted = path?.toUpperCase();
  return MEMBER_STATUSES.find((status) => status === wanted) ?? null;
}

const STATUS_OPTIONS = [
  { value: '', label: membersCopy.ALL_STATUSES },
  ...MEMBER_STATUSES.map((status) => ({ value: status, label: MEMBER_STATUS_LABELS[status] })),
];

/** The members admin screen (spec §2.2 /admin/members, §7.4 GET /members and the member actions). */
export function MembersScreen() {
  const { path } = useParams();
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = useState<MemberStatus | null>(() => statusFromPath(path));
  const [page, setPage] = useState(1);
  const [inviting, invite] = useDisclosure(false);
  const [pending, setPending] = useState<{ member: Member; action: MemberAction } | null>(null);

  const list = useQuery({
    queryKey: [...MEMBERS_QUERY_KEY, 'list', { q, status, page }],
    queryFn: ({ signal }) => membersApi.list({ q, page, status: status ?? undefined }, signal),
    placeholderData: keepPreviousData,
  });

  const act = useMutation({
    mutationFn: ({ member, action }: { member: Member; action: MemberAction }) =>
      membersApi.act(action, [member.user_id]),
    onSuccess: (_answer, { member, action }) => {
      notifySuccess(membersCopy.actionDone(ACTION_LABELS[action], member.name ?? member.email));
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: MEMBERS_QUERY_KEY });
    },
    onError: (error) => notifyFailure(serverMessageOf(error) ?? shell.DEFAULT_ERROR),
  });

  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / MEMBERS_PAGE_SIZE));
  const who = pending ? (pending.member.name ?? pending.member.email) : '';

  return (
    <Stack p="xl" gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>{membersCopy.TITLE}</Title>
          {list.data && (
            <Text c="dimmed" size="sm" data-testid="members-totals">
              {membersCopy.totals(list.data.total, list.data.total_uninvited)}
            </Text>
          )}
        </Stack>
        <Button leftSection={<IconUserPlus size={16} />} onClick={invite.open}>
          {membersCopy.INVITE_MEMBERS}
        </Button>
      </Group>

      <Group gap="sm">
        <TextInput
          placeholder={membersCopy.SEARCH_PLACEHOLDER}
          leftSection={<IconSearch size={16} />}
          value={search}
          w={320}
          aria-label={membersCopy.SEARCH_PLACEHOLDER}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          data={STATUS_OPTIONS}
          value={status ?? ''}
          w={200}
          allowDeselect={false}
          aria-label={membersCopy.STATUS_FILTER}
          onChange={(value) => {
            setStatus(statusFromPath(value ?? undefined));
            setPage(1);
          }}
        />
      </Group>

      {list.isError && (
        <Alert color="red" variant="light">
          {membersCopy.LOAD_FAILED}
        </Alert>
      )}

      <Paper withBorder radius="lg">
        {/* On a phone the table scrolls inside its frame, not the whole page sideways. */}
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{membersCopy.NAME}</Table.Th>
                <Table.Th>{membersCopy.ROLE}</Table.Th>
                <Table.Th>{membersCopy.STATUS}</Table.Th>
                <Table.Th w={60}>
                  <VisuallyHidden>{membersCopy.ACTIONS}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.members.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" ta="center" py="md">
                      {membersCopy.NO_MEMBERS}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {list.data?.members.map((member) => {
                const self = member.user_id === user.userId;
                const actions = actionsFor(member, self);
                return (
                  <Table.Tr key={member.user_id} data-testid="member-row" data-email={member.email}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar
                          src={member.icon}
                          radius="xl"
                          name={member.name ?? member.email}
                          color="initials"
                        />
                        <Stack gap={0}>
                          <Text size="sm" fw={500}>
                            {member.name ?? shell.INVITED_USER}
                            {self && (
                              <Text span c="dimmed" size="sm">
                                {` (${membersCopy.YOU})`}
                              </Text>
                            )}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {member.email}
                          </Text>
                        </Stack>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{member.admin ? inviteCopy.ROLE_ADMIN : inviteCopy.ROLE_MEMBER}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLORS[member.status]}>
                        {MEMBER_STATUS_LABELS[member.status]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {actions.length > 0 && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`${membersCopy.ACTIONS}: ${member.email}`}
                            >
                              <IconDots size={18} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {actions.map((action) => (
                              <Menu.Item
                                key={action}
                                color={DESTRUCTIVE.has(action) ? 'red' : undefined}
                                onClick={() => setPending({ member, action })}
                              >
                                {ACTION_LABELS[action]}
                              </Menu.Item>
                            ))}
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}

      <Modal
        opened={pending !== null}
        onClose={() => setPending(null)}
        title={pending ? membersCopy.confirmTitle(ACTION_LABELS[pending.action], who) : ''}
        centered
      >
        {pending && (
          <Stack gap="lg">
            <Text size="sm">{membersCopy.confirmText[pending.action](who)}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                {membersCopy.CANCEL}
              </Button>
              <Button
                color={DESTRUCTIVE.has(pending.action) ? 'red' : undefined}
                loading={act.isPending}
                onClick={() => act.mutate(pending)}
              >
                {ACTION_LABELS[pending.action]}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>

      <InviteMembersDialog opened={inviting} onClose={invite.close} />
    </Stack>
  );
}
