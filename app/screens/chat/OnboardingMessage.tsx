import {
  Avatar,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconApps,
  IconBrandSlack,
  IconBrowser,
  IconBulb,
  IconCode,
  IconHash,
  IconPencil,
  IconSearch,
  IconSparkles,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CurrentUser } from '../../../common/api/session';
import type { BadgeTone, StatusBadge } from '../../../common/connection-status';
import { apps as appStrings, chat as chatStrings, shell } from '../../../common/strings';
import { useOrg } from '../../api/org';
import { isFlagOn } from '../../auth/session';
import { examplesForRole, onboardingApps, onboardingBadge } from '../../chat/onboarding';
import { useApps } from '../../components/apps/apps-api';
import { chatCopy } from '../../strings';
import classes from './chat.module.css';

function Row({ icon, label, action }: { icon: ReactNode; label: string; action: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" className={classes.onboardingRow}>
      <Group gap="sm" wrap="nowrap">
        {icon}
        <Text size="sm">{label}</Text>
      </Group>
      {action}
    </Group>
  );
}

const CARD_ICONS = {
  Understand: <IconBulb size={18} />,
  Create: <IconPencil size={18} />,
  Find: <IconSearch size={18} />,
} as const;

const CARD_TITLES = {
  Understand: chatStrings.UNDERSTAND,
  Create: chatStrings.CREATE,
  Find: chatStrings.FIND,
} as const;

const BADGE_COLORS: Record<BadgeTone, string> = {
  progress: 'blue',
  connected: 'teal',
  muted: 'gray',
  error: 'red',
  disabling: 'orange',
};

/** An app row's right side: Connect or Reconnect lead to the app's page, where the install happens. */
function AppStatus({ badge, appLink }: { badge: StatusBadge; appLink: string }) {
  if (badge.kind === 'placeholder') return null;
  if (badge.kind === 'connect' || badge.kind === 'reconnect') {
    return (
      <Button
        component={Link}
        to={appLink}
        size="compact-sm"
        variant="light"
        data-testid="onboarding-connect"
      >
        {badge.kind === 'connect' ? appStrings.CONNECT : appStrings.RECONNECT}
      </Button>
    );
  }
  return (
    <Tooltip label={badge.tooltip} disabled={!badge.tooltip} withinPortal>
      <Badge variant="light" color={BADGE_COLORS[badge.tone]} data-testid="onboarding-status">
        {badge.label}
      </Badge>
    </Tooltip>
  );
}

/**
 * The onboarding message at the start of a member's history (spec asking-questions §2): connect apps, use cases
 * for the member's work role, workflows, then the Ask Questions divider.
 */
export function OnboardingMessage({ user, onAsk }: { user: CurrentUser; onAsk(query: string): void }) {
  const org = useOrg();
  const apps = useApps();
  const appPreferences = org.data?.appPreferences ?? {};
  const restricted = !user.admin && appPreferences.restrict_apps_to_only_admins === true;
  const recommended = onboardingApps(appPreferences, user, true);
  const entries = new Map((apps.data?.apps ?? []).map((entry) => [entry.shortname, entry]));
  const viewer = { userId: user.userId, admin: user.admin };
  const appLink = (name: string) => `/apps/${user.admin ? 'org' : 'individual'}/${name}`;
  const examples = examplesForRole(user.workRole);
  return (
    <Group
      align="flex-start"
      gap="sm"
      wrap="nowrap"
      className={classes.message}
      data-testid="onboarding-message"
    >
      <Avatar color="indigo" variant="filled" radius="xl" size={32}>
        <IconSparkles size={18} />
      </Avatar>
      <Stack gap="md" style={{ flex: 1 }} miw={0}>
        <Title order={3}>{chatStrings.WELCOME}</Title>
        <Divider label={chatStrings.CONNECT_ALL_APPS} labelPosition="left" />
        <Paper withBorder radius="md" p="xs">
          <Stack gap={0}>
            {recommended.map((app) => (
              <Row
                key={app.shortname}
                icon={<Avatar size={24} radius="sm" name={app.displayName} color="initials" />}
                label={app.displayName}
                action={
                  apps.data ? (
                    <AppStatus
                      badge={onboardingBadge(app, entries.get(app.shortname), viewer)}
                      appLink={appLink(app.shortname)}
                    />
                  ) : null
                }
              />
            ))}
            <Row
              icon={<IconBrowser size={20} />}
              label={chatCopy.ONBOARDING_EXTENSION_ROW}
              action={
                <Button component={Link} to="/browser-extension" size="compact-sm" variant="light">
                  {shell.INSTALL_EXTENSION}
                </Button>
              }
            />
            <Row
              icon={<IconApps size={20} />}
              label={chatCopy.ONBOARDING_APP_STORE_ROW}
              action={
                <Button component={Link} to="/integrations" size="compact-sm" variant="subtle">
                  {chatStrings.VIEW_ALL}
                </Button>
              }
            />
          </Stack>
        </Paper>
        <Divider label={chatStrings.TRY_USE_CASES} labelPosition="left" />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {(['Understand', 'Create', 'Find'] as const).map((card) => (
            <Paper key={card} withBorder radius="md" p="sm">
              <Group gap={6} mb="xs">
                {CARD_ICONS[card]}
                <Text fw={600} size="sm">
                  {CARD_TITLES[card]}
                </Text>
              </Group>
              <Stack gap={4}>
                {examples[card].map((prompt) => (
                  <UnstyledButton key={prompt} className={classes.related} onClick={() => onAsk(prompt)}>
                    <Text size="sm">{prompt}</Text>
                  </UnstyledButton>
                ))}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        <Divider label={chatStrings.BRING_INTO_WORKFLOWS} labelPosition="left" />
        <Paper withBorder radius="md" p="xs">
          <Stack gap={0}>
            {!restricted && (
              <Row
                icon={<IconBrandSlack size={20} />}
                label={chatStrings.ASK_IN_SLACK_DM}
                action={
                  <Button component={Link} to={appLink('slack')} size="compact-sm" variant="light">
                    {appStrings.CONNECT}
                  </Button>
                }
              />
            )}
            <Row
              icon={<IconHash size={20} />}
              label={chatStrings.ADD_SLACKBOT}
              action={
                <Button component={Link} to="/integrations" size="compact-sm" variant="subtle">
                  {chatStrings.LEARN}
                </Button>
              }
            />
            <Row
              icon={<IconBrowser size={20} />}
              label={chatStrings.ACCESS_FROM_HOMEPAGE}
              action={
                <Button component={Link} to="/browser-extension" size="compact-sm" variant="subtle">
                  {shell.INSTALL_EXTENSION}
                </Button>
              }
            />
            {user.admin && isFlagOn(user, 'apiKeysEnabled') && (
              <Row
                icon={<IconCode size={20} />}
                label={chatStrings.EMBED_ANYWHERE}
                action={
                  <Button component={Link} to="/admin/api-keys" size="compact-sm" variant="subtle">
                    {chatStrings.CREATE}
                  </Button>
                }
              />
            )}
          </Stack>
        </Paper>
        <Divider
          label={chatStrings.ASK_QUESTIONS}
          labelPosition="center"
          mt="sm"
          data-testid="ask-questions-divider"
        />
      </Stack>
    </Group>
  );
}
