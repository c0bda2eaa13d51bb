import { Blockquote, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { isOpenableDocumentUrl } from '../../../common/document-url';
import { previewCopy } from '../../strings';
import { AppIcon } from '../apps/AppIcon';
import { useDocumentPreview } from './preview-query';

/** A document as the panel shows it, from an answer's reference or a search result. */
export type PreviewDocument = {
  objectId: string;
  title: string;
  source: string;
  url: string | null;
  author: string | null;
  /** The passage that led here: the text an answer cited, or a search result's snippet. */
  passage: string;
  passageKind: 'cited' | 'match';
  /** What the document's text is centred on: the search typed, else the passage itself. */
  centreOn?: string;
};

type Props = {
  /** The document being previewed; null when the panel is closed. */
  document: PreviewDocument | null;
  /** The name its source app is shown with. */
  sourceName: string;
  /** Whether the viewer may ask the server for the document's text (signed in, and the topic is of their org). */
  withDocumentText: boolean;
  onClose(): void;
};

/**
 * A document in a side panel (spec §7.4 preview) instead of a link: its title, its source, the passage that led
 * here and, for a signed-in reader, the document's text around it. 'Open in <app>' only when the document has an
 * address a browser can open (common/document-url.ts): the demo's documents have none.
 */
export function PreviewPanel({ document, sourceName, withDocumentText, onClose }: Props) {
  const preview = useDocumentPreview(
    withDocumentText ? (document?.objectId ?? null) : null,
    document?.centreOn ?? document?.passage ?? '',
  );
  const url = isOpenableDocumentUrl(document?.url) ? document?.url : null;
  return (
    <Drawer
      opened={document !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Text fw={600} lineClamp={2} data-testid="preview-title">
          {document?.title}
        </Text>
      }
      data-testid="preview-panel"
    >
      {document && (
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Group gap={8} wrap="nowrap" miw={0}>
              <AppIcon name={sourceName} size={24} />
              <Text size="sm" c="dimmed" data-testid="preview-source">
                {[sourceName, document.author].filter(Boolean).join(' · ')}
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
          {document.passage && (
            <Stack gap={4}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {document.passageKind === 'cited' ? previewCopy.CITED_PASSAGE : previewCopy.MATCHING_PASSAGE}
              </Text>
              <Blockquote p="sm" data-testid="preview-passage">
                <Text size="sm">{document.passage}</Text>
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
