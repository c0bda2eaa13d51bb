import { Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { getApp } from '../../../common/catalogue';
import { PROMO_APP_ICONS, PROMO_CUSTOMER_LOGOS } from '../../../common/limits';
import { shell } from '../../../common/strings';
import { AppIcon } from '../../components/apps/AppIcon';
import { publicTopicCopy } from '../../strings';

/** Spec §2.6: a team messaging app, an issue tracker, a notes app, a code host, a mail app. */
const PROMO_APPS = ['slack', 'jira', 'notion', 'github', 'gmail'] as const;

/**
 * The public topic page's footer (spec §2.6): what Scout does, Sign Up for a visitor or Start a chat for a
 * signed-in member, customer marks and the apps it connects to.
 */
export function PromoFooter({ signedIn }: { signedIn: boolean }) {
  return (
    <Paper component="footer" withBorder radius="md" p="xl" data-testid="public-topic-promo">
      <Stack align="center" gap="md" ta="center">
        <Title order={2} size="h3">
          {publicTopicCopy.PROMO_HEADING}
        </Title>
        <Text c="dimmed" maw={520}>
          {publicTopicCopy.PROMO_TEXT}
        </Text>
        {signedIn ? (
          <Button component={Link} to="/chat" size="md">
            {shell.PUBLIC_TOPIC_START_CHAT}
          </Button>
        ) : (
          <Button component={Link} to="/signup" size="md">
            {shell.PUBLIC_TOPIC_SIGN_UP}
          </Button>
        )}
        <Stack gap={6} align="center">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {publicTopicCopy.CUSTOMERS_LABEL}
          </Text>
          <Group gap="lg" justify="center" data-testid="promo-customers">
            {publicTopicCopy.CUSTOMER_MARKS.slice(0, PROMO_CUSTOMER_LOGOS).map((mark) => (
              <Text key={mark} fw={700} c="gray.6" ff="Georgia, serif" size="lg">
                {mark}
              </Text>
            ))}
          </Group>
        </Stack>
        <Stack gap={6} align="center">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {publicTopicCopy.APPS_LABEL}
          </Text>
          <Group gap="sm" justify="center" data-testid="promo-apps">
            {PROMO_APPS.slice(0, PROMO_APP_ICONS).map((shortname) => {
              const name = getApp(shortname)?.displayName ?? shortname;
              return (
                <Tooltip key={shortname} label={name} withinPortal>
                  <span role="img" aria-label={name}>
                    <AppIcon name={name} size={32} />
                  </span>
                </Tooltip>
              );
            })}
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}
