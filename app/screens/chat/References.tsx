import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Drawer,
  Group,
  Paper,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconExternalLink, IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import type { Reference } from '../../../common/api/messages';
import { getApp } from '../../../common/catalogue';
import { isOpenableDocumentUrl } from '../../../common/document-url';
import {
  MOBILE_BREAKPOINT_PX,
  REFERENCE_TITLE_MAX_CHARS,
  REFERENCES_SHOWN,
  referencesPanelPageSize,
} from '../../../common/limits';
import { seeAllTile } from '../../chat/references';
import { truncate } from '../../chat/text';
import { AppIcon } from '../../components/apps/AppIcon';
import { useReferenceOpener } from '../../components/preview/ReferencePreview';
import { chatCopy } from '../../strings';
import classes from './chat.module.css';

/** The name a reference's source is shown with: the app's display name, else the source as stored. */
export function sourceLabel(source: string): string {
  const app = getApp(source);
  if (app) return app.displayName;
  const names: Record<string, string> = {
    verified_answers: chatCopy.SOURCE_ANSWERS,
    files: chatCopy.SOURCE_FILES,
    web: 'Web',
    website: 'Website',
    'custom-api': 'Custom API',
  };
  return names[source] ?? source;
}

/** A document of the org opens in the preview panel; a web page where it is (useReferenceOpener). */
function ReferenceChip({ reference, n }: { reference: Reference; n: number }) {
  const title = truncate(reference.title, REFERENCE_TITLE_MAX_CHARS);
  const { preview, href } = useReferenceOpener(reference);
  const target = preview
    ? ({ component: 'button', type: 'button', onClick: preview } as const)
    : ({ component: 'a', href, target: '_blank', rel: 'noopener noreferrer' } as const);
  return (
    <Tooltip label={reference.title} withinPortal openDelay={200}>
      <Paper
        {...target}
        withBorder
        radius="md"
        px="sm"
        py={6}
        className={classes.referenceChip}
        data-testid="reference"
      >
        <Group gap={8} wrap="nowrap">
          <Badge size="sm" variant="light" radius="sm" circle>
            {n}
          </Badge>
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={500} lh={1.3}>
              {title}
            </Text>
            <Text size="xs" c="dimmed" lh={1.3}>
              {sourceLabel(reference.source)}
            </Text>
          </Stack>
        </Group>
      </Paper>
    </Tooltip>
  );
}

/** The references past the first 8, folded into one tile: their sources' icons and how many. */
function SeeAllTile({ hidden, onClick }: { hidden: readonly Reference[]; onClick(): void }) {
  const narrow = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const tile = seeAllTile(hidden, narrow);
  return (
    <Paper
      component="button"
      type="button"
      onClick={onClick}
      withBorder
      radius="md"
      px="sm"
      py={6}
      className={classes.referenceChip}
      aria-label={chatCopy.showMoreReferences(hidden.length)}
      data-testid="references-see-all"
    >
      <Group gap={6} wrap="nowrap">
        <Avatar.Group spacing={6}>
          {tile.sources.map((source) => (
            <AppIcon key={source} name={sourceLabel(source)} size={22} />
          ))}
        </Avatar.Group>
        <Text size="sm" fw={600}>
          {tile.count}
        </Text>
      </Group>
    </Paper>
  );
}

/** The side panel (Explore more): every reference with its snippet, a page at a time. */
function ReferencesPanel({
  references,
  opened,
  onClose,
}: {
  references: readonly Reference[];
  opened: boolean;
  onClose(): void;
}) {
  const pageSize = referencesPanelPageSize(typeof window === 'undefined' ? 800 : window.innerHeight);
  const [shown, setShown] = useState(pageSize);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={chatCopy.EXPLORE_MORE}
      size="md"
      data-testid="references-panel"
    >
      <Stack gap="sm">
        {references.slice(0, shown).map((reference, index) => (
          <Paper key={reference.id} withBorder p="sm" radius="md">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Badge size="sm" variant="light" radius="sm" circle>
                {index + 1}
              </Badge>
              <Stack gap={4} miw={0} style={{ flex: 1 }}>
                <Group gap={6} wrap="nowrap">
                  <IconFileText size={14} />
                  {isOpenableDocumentUrl(reference.url) ? (
                    <Anchor href={reference.url} target="_blank" rel="noopener noreferrer" size="sm" fw={600}>
                      {reference.title} <IconExternalLink size={12} />
                    </Anchor>
                  ) : (
                    <Text size="sm" fw={600}>
                      {reference.title}
                    </Text>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {[sourceLabel(reference.source), reference.author.name].filter(Boolean).join(' · ')}
                </Text>
                {reference.snippet && (
                  <Text size="sm" lineClamp={3}>
                    {reference.snippet}
                  </Text>
                )}
              </Stack>
            </Group>
          </Paper>
        ))}
        {shown < references.length && (
          <Button variant="subtle" onClick={() => setShown((value) => value + pageSize)}>
            {chatCopy.showMoreReferences(Math.min(pageSize, references.length - shown))}
          </Button>
        )}
      </Stack>
    </Drawer>
  );
}

/** References under an answer: the first 8, then all on request, and the side panel. */
export function References({ references }: { references: readonly Reference[] }) {
  const [expanded, setExpanded] = useState(false);
  const [panel, togglePanel] = useDisclosure(false);
  if (references.length === 0) return null;
  const hidden = references.length - REFERENCES_SHOWN;
  const shown = expanded ? references : references.slice(0, REFERENCES_SHOWN);
  return (
    <Stack gap={6} data-testid="references">
      <Group justify="space-between">
        <Text size="xs" fw={600} c="dimmed" tt="uppercase">
          {chatCopy.REFERENCES}
        </Text>
        <UnstyledButton onClick={togglePanel.open} className={classes.linkButton}>
          <Text size="xs" c="indigo" fw={500}>
            {chatCopy.EXPLORE_MORE}
          </Text>
        </UnstyledButton>
      </Group>
      <Group gap={8}>
        {shown.map((reference, index) => (
          <ReferenceChip key={`${reference.id}-${index}`} reference={reference} n={index + 1} />
        ))}
        {hidden > 0 && !expanded && (
          <SeeAllTile hidden={references.slice(REFERENCES_SHOWN)} onClick={() => setExpanded(true)} />
        )}
        {hidden > 0 && expanded && (
          <Button variant="subtle" size="compact-sm" onClick={() => setExpanded(false)}>
            {chatCopy.SHOW_FEWER_REFERENCES}
          </Button>
        )}
      </Group>
      <ReferencesPanel references={references} opened={panel} onClose={togglePanel.close} />
    </Stack>
  );
}
