import {
  Avatar,
  CloseButton,
  Combobox,
  Group,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMail, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Member } from '../../../common/api/members';
import {
  INVITE_LIST_MAX_HEIGHT_PX,
  MEMBER_SEARCH_DEBOUNCE_MS,
  MEMBER_SEARCH_PAGE,
} from '../../../common/limits';
import { invites, shell } from '../../../common/strings';
import { MEMBERS_QUERY_KEY, membersApi } from '../../api/members';
import { inviteCopy } from '../../strings';
import { inviteEmailProblem, inviteSuggestions, newEntry, resendEntry } from './invite-list';
import type { InviteEntry } from './invite-list';

interface InvitePickerProps {
  entries: InviteEntry[];
  onChange: (entries: InviteEntry[]) => void;
  /** Only admins choose a role (spec asking-questions §6). */
  canChooseRole: boolean;
  /** `[org.domain, ...org.allowedDomains]`: where invites may go. */
  domains: readonly string[];
  disabled?: boolean;
}

const NEW_OPTION = '__new__';

/** Members not signed up yet whose email or name holds the text (both statuses, first page only: spec §5). */
async function pendingMembers(text: string, signal: AbortSignal): Promise<Member[]> {
  const pages = await Promise.all(
    (['INVITED', 'CREATED'] as const).map((status) =>
      membersApi.list({ q: text, page: MEMBER_SEARCH_PAGE, status }, signal),
    ),
  );
  return pages.flatMap((page) => page.members);
}

/**
 * The invite search box and its two lists, 'Invite' (new addresses) and 'Resend invite' (members invited before),
 * used by the Invite members dialog and the first-run setup dialog.
 */
export function InvitePicker({ entries, onChange, canChooseRole, domains, disabled }: InvitePickerProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(text.trim(), MEMBER_SEARCH_DEBOUNCE_MS);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });

  const found = useQuery({
    queryKey: [...MEMBERS_QUERY_KEY, 'invite-suggestions', debounced],
    enabled: debounced !== '',
    staleTime: 30_000,
    queryFn: ({ signal }) => pendingMembers(debounced, signal),
  });
  const suggestions =
    debounced === text.trim() ? inviteSuggestions(found.data ?? [], entries, debounced) : [];
  const typed = text.trim().toLowerCase();
  const picked = new Set(entries.map((entry) => entry.email));
  const offerNew =
    typed.includes('@') && !picked.has(typed) && !suggestions.some((member) => member.email === typed);

  const add = (entry: InviteEntry) => {
    onChange([...entries.filter((existing) => existing.email !== entry.email), entry]);
    setText('');
    setProblem(null);
    combobox.closeDropdown();
  };

  const addTyped = () => {
    if (!typed) return;
    const exact = suggestions.find((member) => member.email === typed);
    if (exact) return add(resendEntry(exact));
    const refusal = inviteEmailProblem(typed, domains);
    if (refusal) {
      setProblem(refusal);
      return;
    }
    if (picked.has(typed)) {
      setText('');
      return;
    }
    add(newEntry(typed));
  };

  const onOptionSubmit = (value: string) => {
    if (value === NEW_OPTION) return addTyped();
    const member = suggestions.find((candidate) => candidate.email === value);
    if (member) add(resendEntry(member));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // An option picked with the arrow keys is the Combobox's to submit.
    if (combobox.dropdownOpened && combobox.getSelectedOptionIndex() !== -1) return;
    event.preventDefault();
    addTyped();
  };

  const update = (entry: InviteEntry, admin: boolean) =>
    onChange(entries.map((existing) => (existing.email === entry.email ? { ...existing, admin } : existing)));
  const remove = (entry: InviteEntry) =>
    onChange(entries.filter((existing) => existing.email !== entry.email));

  const fresh = entries.filter((entry) => entry.inviteType === 'new');
  const again = entries.filter((entry) => entry.inviteType === 'resend');
  const hasOptions = suggestions.length > 0 || offerNew;

  return (
    <Stack gap="md">
      <Combobox store={combobox} onOptionSubmit={onOptionSubmit} withinPortal={false}>
        <Combobox.Target>
          <TextInput
            label={inviteCopy.SEARCH_LABEL}
            placeholder={inviteCopy.SEARCH_PLACEHOLDER}
            leftSection={<IconSearch size={16} />}
            value={text}
            error={problem}
            disabled={disabled}
            data-testid="invite-search"
            onChange={(event) => {
              setText(event.currentTarget.value);
              setProblem(null);
              combobox.openDropdown();
              combobox.resetSelectedOption();
            }}
            onFocus={() => combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            onKeyDown={onKeyDown}
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={!hasOptions}>
          <Combobox.Options>
            {suggestions.map((member) => (
              <Combobox.Option value={member.email} key={member.email}>
                <Group gap="sm" wrap="nowrap">
                  <Avatar
                    src={member.icon}
                    size="sm"
                    radius="xl"
                    name={member.name ?? member.email}
                    color="initials"
                  />
                  <Stack gap={0}>
                    <Text size="sm">{member.name ?? shell.INVITED_USER}</Text>
                    <Text size="xs" c="dimmed">
                      {member.email}
                    </Text>
                  </Stack>
                </Group>
              </Combobox.Option>
            ))}
            {offerNew && (
              <Combobox.Option value={NEW_OPTION}>
                <Group gap="sm" wrap="nowrap">
                  <Avatar size="sm" radius="xl" color="indigo">
                    <IconMail size={14} />
                  </Avatar>
                  <Text size="sm">{inviteCopy.addAsNew(typed)}</Text>
                </Group>
              </Combobox.Option>
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>

      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {inviteCopy.EMPTY}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={INVITE_LIST_MAX_HEIGHT_PX} type="auto" offsetScrollbars>
          <Stack gap="md">
            <EntryList
              title={invites.INVITE}
              testId="invite-list-new"
              entries={fresh}
              canChooseRole={canChooseRole}
              disabled={disabled}
              onRole={update}
              onRemove={remove}
            />
            <EntryList
              title={invites.RESEND_INVITE}
              testId="invite-list-resend"
              entries={again}
              canChooseRole={canChooseRole}
              disabled={disabled}
              onRole={update}
              onRemove={remove}
            />
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

interface EntryListProps {
  title: string;
  testId: string;
  entries: InviteEntry[];
  canChooseRole: boolean;
  disabled?: boolean;
  onRole: (entry: InviteEntry, admin: boolean) => void;
  onRemove: (entry: InviteEntry) => void;
}

const ROLE_OPTIONS = [
  { value: 'member', label: inviteCopy.ROLE_MEMBER },
  { value: 'admin', label: inviteCopy.ROLE_ADMIN },
];

function EntryList({ title, testId, entries, canChooseRole, disabled, onRole, onRemove }: EntryListProps) {
  if (entries.length === 0) return null;
  return (
    <Stack gap={6} data-testid={testId}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {title}
      </Text>
      {entries.map((entry) => (
        <Group key={entry.email} gap="sm" wrap="nowrap" data-testid="invite-entry">
          <Avatar src={entry.icon} size="sm" radius="xl" name={entry.name ?? entry.email} color="initials" />
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" truncate>
              {entry.name ?? entry.email}
            </Text>
            {entry.name && (
              <Text size="xs" c="dimmed" truncate>
                {entry.email}
              </Text>
            )}
          </Stack>
          {canChooseRole ? (
            <Select
              size="xs"
              w={110}
              data={ROLE_OPTIONS}
              value={entry.admin ? 'admin' : 'member'}
              allowDeselect={false}
              disabled={disabled}
              aria-label={inviteCopy.roleOf(entry.email)}
              onChange={(value) => onRole(entry, value === 'admin')}
              comboboxProps={{ withinPortal: false }}
            />
          ) : (
            <Text size="sm" c="dimmed" w={110} ta="right">
              {inviteCopy.ROLE_MEMBER}
            </Text>
          )}
          <CloseButton
            size="sm"
            aria-label={`${inviteCopy.REMOVE} ${entry.email}`}
            disabled={disabled}
            onClick={() => onRemove(entry)}
          />
        </Group>
      ))}
    </Stack>
  );
}
