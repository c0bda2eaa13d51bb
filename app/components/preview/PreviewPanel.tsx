import { Blockquote, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { Reference } from '../../../common/api/messages';
import { isOpenableDocumentUrl } from '../../../common/document-url';
import { previewCopy } from '../../strings';
import { AppIcon } from '../apps/AppIcon';
import { useDocumentPreview } from './preview-query';

type Props = {
  /** The reference being previewed; null when the panel is closed. */
  reference: Reference | null;
  /** The name its source app is shown with. */
  sourceName: string;
  /** Whether the viewer may ask the server for the document's text (signed in, and the topic is of their org). */
  withDocumentText: boolean;
  onClose(): void;
};

/**
 * A referenced document in a side panel (spec §7.4 preview) instead of a link: its title, its source, the passage
 * the answer cited and, for a signed-in reader, the document's text around it. 'Open in <app>' only when the
 * document has an address a browser can open (common/document-url.ts): the demo's documents have none.
 */
export function PreviewPanel({ reference, sourceName, withDocumentText, onClose }: Props) {
  const preview = useDocumentPreview(
    withDocumentText ? (reference?.id ?? null) : null,
    reference?.snippet ?? '',
  );
  const url = isOpenableDocumentUrl(reference?.url) ? reference?.url : null;
  return (
    <Drawer
      opened={reference !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Text fw={600} lineClamp={2} data-testid="preview-title">
          {reference?.title}
        </Text>
      }
      data-testid="preview-panel"
    >
      {reference && (
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Group gap={8} wrap="nowrap" miw={0}>
              <AppIcon name={sourceName} size={24} />
              <Text size="sm" c="dimmed" data-testid="preview-source">
                {[sourceName, reference.author.name].filter(Boolean).join(' · ')}
              </Text>
            </Group>
            {url && (
              <Button
                component="a"
                href={url}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
                variant="light"
                rightSection={<IconExternalLink size={14} />}
              >
                {previewCopy.openIn(sourceName)}
              </Button>
            )}
          </Group>
          {reference.snippet && (
            <Stack gap={4}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {previewCopy.CITED_PASSAGE}
              </Text>
              <Blockquote p="sm" data-testid="preview-passage">
                <Text size="sm">{reference.snippet}</Text>
              </Blockquote>
            </Stack>
          )}
          {withDocumentText && (
            <Stack gap={4}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {previewCopy.IN_THE_DOCUMENT}
              </Text>
              {preview.isPending && <Loader size="sm" type="dots" />}
              {preview.isError && (
                <Text size="sm" c="dimmed" data-testid="preview-unavailable">
                  {previewCopy.UNAVAILABLE}
                </Text>
              )}
              {preview.data && (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="preview-content">
                  {preview.data.truncated_before && '… '}
                  {preview.data.content}
                  {preview.data.truncated_after && ' …'}
                </Text>
              )}
            </Stack>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
