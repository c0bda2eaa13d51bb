import {
  Button,
  Divider,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { orgSchema } from '../../common/api/orgs';
import type { CurrentUser } from '../../common/api/session';
import { REFERRAL_SOURCES, WORK_ROLES, okResponseSchema } from '../../common/api/users';
import type { SetupStatusRequest } from '../../common/api/users';
import { SETUP_DIALOG_CLOSE_DELAY_MS } from '../../common/limits';
import { api } from '../api/client';
import { serverMessageOf, statusOf } from '../api/errors';
import { ORG_QUERY_ROOT, invitableDomainsOf, useOrg } from '../api/org';
import { CURRENT_USER_QUERY_ROOT, isFlagOn, useSignedInUser } from '../auth/session';
import { setupDoneKey } from '../config';
import { LOGO_IMAGE } from '../images';
import { REFERRAL_SOURCE_LABELS, WORK_ROLE_LABELS, setupCopy } from '../strings';
import { ImagePicker } from './ImagePicker';
import { canFinishSetup, isFirstAdmin } from './setup';
import type { ReferralSource, SetupAnswers, WorkRole } from './setup';
import { InvitePicker } from './invite/InvitePicker';
import { sendInvites } from './invite/send-invites';
import { notifyFailure, notifySuccess } from './toast';

/** The setup status the server records once the dialog is done (PATCH /users/setup_status). */
const SETUP_COMPLETE = 'COMPLETED';

const WORK_ROLE_OPTIONS = WORK_ROLES.map((value) => ({ value, label: WORK_ROLE_LABELS[value] }));
const REFERRAL_OPTIONS = REFERRAL_SOURCES.map((value) => ({ value, label: REFERRAL_SOURCE_LABELS[value] }));

function storedDone(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function storeDone(key: string): void {
  try {
    window.localStorage.setItem(key, '1');
  } catch {
    // Storage blocked: the dialog may show again next time, which is all that is lost.
  }
}

/** Sent on the window when the setup dialog is done: the guided tour starts then (spec §4.5). */
export const SETUP_FINISHED_EVENT = 'scout:setup-finished';

/** Whether the setup dialog is still due: its flag on, the user's setup not complete, its done flag not stored. */
export function isSetupDue(user: CurrentUser, done = storedDone(setupDoneKey(user.userId))): boolean {
  return isFlagOn(user, 'userSetup') && user.userSetupStatus !== SETUP_COMPLETE && !done;
}

/**
 * The first-run setup dialog (spec §4.5, behind the userSetup flag of §6): shown once, to someone whose setup is not
 * complete, until its done flag is stored locally.
 */
export function SetupDialog() {
  const user = useSignedInUser();
  const key = setupDoneKey(user.userId);
  const [done, setDone] = useState(() => storedDone(key));
  const close = useCallback(() => {
    storeDone(key);
    setDone(true);
    window.dispatchEvent(new Event(SETUP_FINISHED_EVENT));
  }, [key]);
  const wanted = isSetupDue(user, done);
  return wanted ? <SetupForm user={user} onClose={close} /> : null;
}

function SetupForm({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const queryClient = useQueryClient();
  const org = useOrg();
  const firstAdmin = isFirstAdmin(user);
  const [answers, setAnswers] = useState<SetupAnswers>({
    workRole: null,
    referral: null,
    referralOther: '',
    companyName: user.org.name,
    logo: user.org.logo,
    invites: [],
  });
  const set = (change: Partial<SetupAnswers>) => setAnswers((current) => ({ ...current, ...change }));

  const save = useMutation({
    mutationFn: async () => {
      const status: SetupStatusRequest = {
        work_role: answers.workRole as WorkRole,
        referral_source: answers.referral as ReferralSource,
        ...(answers.referral === 'other' ? { referral_source_other: answers.referralOther.trim() } : {}),
      };
      await api.patch('users/setup_status', { body: status, schema: okResponseSchema });
      if (firstAdmin) {
        const changes = {
          company_name: answers.companyName.trim(),
          ...(answers.logo !== user.org.logo ? { logo: answers.logo } : {}),
        };
        await api.patch('orgs', { body: changes, schema: orgSchema });
        void queryClient.invalidateQueries({ queryKey: ORG_QUERY_ROOT });
      }
      return answers.invites.length > 0 ? sendInvites(answers.invites) : null;
    },
    onSuccess: (outcome) => {
      outcome?.successes.forEach((message) => notifySuccess(message));
      outcome?.failures.forEach((message) => notifyFailure(message));
    },
    // A refusal the server words itself (a logo that is not square, say) is worth more than the generic text.
    onError: (error) =>
      notifyFailure(
        statusOf(error) === 400 ? (serverMessageOf(error) ?? setupCopy.SAVE_FAILED) : setupCopy.SAVE_FAILED,
      ),
  });

  // Spec §4.5, §9: once saved, the dialog closes after 1 s; then the user is re-read (setup complete, new name).
  useEffect(() => {
    if (!save.isSuccess) return;
    const timer = setTimeout(() => {
      onClose();
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_ROOT });
    }, SETUP_DIALOG_CLOSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [save.isSuccess, onClose, queryClient]);

  return (
    <Modal
      opened
      onClose={onClose}
      title={setupCopy.DIALOG_TITLE}
      size="lg"
      centered
      closeOnClickOutside={false}
      data-testid="setup-dialog"
    >
      {save.isSuccess ? (
        <Stack align="center" gap="sm" py="xl">
          <ThemeIcon size={56} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={36} />
          </ThemeIcon>
          <Text fw={600}>{setupCopy.ALL_SET}</Text>
        </Stack>
      ) : (
        <Stack gap="md">
          <Text c="dimmed" size="sm">
            {setupCopy.DIALOG_INTRO}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Select
              label={setupCopy.WORK_ROLE}
              placeholder={setupCopy.CHOOSE}
              data={WORK_ROLE_OPTIONS}
              value={answers.workRole}
              onChange={(value) => set({ workRole: value as WorkRole | null })}
              comboboxProps={{ withinPortal: false }}
            />
            <Select
              label={setupCopy.REFERRAL_SOURCE}
              placeholder={setupCopy.CHOOSE}
              data={REFERRAL_OPTIONS}
              value={answers.referral}
              onChange={(value) => set({ referral: value as ReferralSource | null })}
              comboboxProps={{ withinPortal: false }}
            />
          </SimpleGrid>
          {answers.referral === 'other' && (
            <TextInput
              label={setupCopy.REFERRAL_OTHER}
              value={answers.referralOther}
              maxLength={500}
              onChange={(event) => set({ referralOther: event.currentTarget.value })}
            />
          )}
          {firstAdmin && (
            <>
              <Divider label={setupCopy.YOUR_WORKSPACE} labelPosition="left" mt="xs" />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <TextInput
                  label={setupCopy.COMPANY_NAME}
                  value={answers.companyName}
                  maxLength={100}
                  onChange={(event) => set({ companyName: event.currentTarget.value })}
                />
                <ImagePicker
                  label={setupCopy.LOGO}
                  hint={setupCopy.LOGO_HINT}
                  uploadLabel={setupCopy.UPLOAD_LOGO}
                  removeLabel={setupCopy.REMOVE_LOGO}
                  kind={LOGO_IMAGE}
                  value={answers.logo}
                  onChange={(logo) => set({ logo })}
                  size={48}
                />
              </SimpleGrid>
              {org.data && (
                <>
                  <Divider label={setupCopy.INVITE_TEAM} labelPosition="left" mt="xs" />
                  <InvitePicker
                    entries={answers.invites}
                    onChange={(entries) => set({ invites: entries })}
                    canChooseRole
                    domains={invitableDomainsOf(org.data)}
                  />
                </>
              )}
            </>
          )}
          <Group justify="flex-end" mt="sm">
            <Button
              onClick={() => save.mutate()}
              disabled={!canFinishSetup(answers, firstAdmin)}
              loading={save.isPending}
            >
              {setupCopy.DONE}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
