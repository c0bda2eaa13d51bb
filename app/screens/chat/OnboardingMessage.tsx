import {
  Avatar,
  Button,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
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
import { getApp, POPULAR_APP_ORDER } from '../../../common/catalogue';
import { RECOMMENDED_APPS_MAX } from '../../../common/limits';
import { chat as chatStrings, shell } from '../../../common/strings';
import { isFlagOn } from '../../auth/session';
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

const CARDS = [
  {
    title: chatStrings.UNDERSTAND,
    icon: <IconBulb size={18} />,
    prompts: chatCopy.useCaseExamples.Understand,
  },
  { title: chatStrings.CREATE, icon: <IconPencil size={18} />, prompts: chatCopy.useCaseExamples.Create },
  { title: chatStrings.FIND, icon: <IconSearch size={18} />, prompts: chatCopy.useCaseExamples.Find },
];

/**
 * The onboarding message at the start of a member's history (spec asking-questions §2): connect apps, use cases,
 * workflows, then the Ask Questions divider. App rows stay simple: each leads to the app store.
 */
export function OnboardingMessage({ user, onAsk }: { user: CurrentUser; onAsk(query: string): void }) {
  // Recommended apps are hidden from members when apps are restricted to admins; until the org's preference is
  // served, every member sees the popular ones, an even count beside the extension row.
  const apps = POPULAR_APP_ORDER.map((name) => getApp(name))
    .filter((app) => app !== undefined)
    .slice(0, RECOMMENDED_APPS_MAX - 1);
  const connectLink = (
    <Button component={Link} to="/integrations" size="compact-sm" variant="light">
      {chatCopy.CONNECT}
    </Button>
  );
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
            {apps.map((app) => (
              <Row
                key={app.shortname}
                icon={<Avatar size={24} radius="sm" name={app.displayName} color="initials" />}
                label={app.displayName}
                action={connectLink}
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
          {CARDS.map((card) => (
            <Paper key={card.title} withBorder radius="md" p="sm">
              <Group gap={6} mb="xs">
                {card.icon}
                <Text fw={600} size="sm">
                  {card.title}
                </Text>
              </Group>
              <Stack gap={4}>
                {card.prompts.map((prompt) => (
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
            <Row
              icon={<IconBrandSlack size={20} />}
              label={chatStrings.ASK_IN_SLACK_DM}
              action={connectLink}
            />
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
