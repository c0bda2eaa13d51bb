import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconFileZip, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UploadedDocument, UploadVisibility } from '../../common/api/uploads';
import { FILE_NOT_INDEXED_CHUNKS } from '../../common/limits';
import { files as fileStrings } from '../../common/strings';
import { ACCEPTED_UPLOAD_EXTENSIONS, ACCEPTED_ZIP_EXTENSIONS } from '../../common/uploads';
import { serverMessageOf, statusOf } from '../api/errors';
import { useSignedInUser } from '../auth/session';
import { notifyFailure, notifySuccess } from '../components/toast';
import { FILES_QUERY_KEY, filesApi, uploadFiles } from './files/api';
import { isPastAgeWarning, uploadRefusal } from './files/checks';

/** While a file is indexing, the list is refreshed this often so its chunk count appears. */
const INDEXING_POLL_MS = 1000;

interface InTransit {
  key: string;
  name: string;
  /** 0–100. */
  progress: number;
}

/** What the user is told about one refused file (the spec's strings; the no-content 400 in the app's words). */
function refusalMessage(name: string, status: number | null, message: string | null): string {
  if (message === fileStrings.NO_CONTENT_PARSED) return fileStrings.emptyDocument(name);
  if (status === 413) return fileStrings.fileTooLarge(name);
  return message && status !== null && status < 500 ? message : fileStrings.UPLOAD_ERROR;
}

/** /files: the viewer's uploads (and the workspace's), upload with progress per file, status, delete. */
export function FilesScreen() {
  const user = useSignedInUser();
  const queryClient = useQueryClient();
  const [visibility, setVisibility] = useState<UploadVisibility>('PRIVATE');
  const [inTransit, setInTransit] = useState<InTransit[]>([]);
  const [deleting, setDeleting] = useState<UploadedDocument | null>(null);

  const list = useQuery({
    queryKey: FILES_QUERY_KEY,
    queryFn: ({ signal }) => filesApi.list(signal),
    refetchInterval: (query) =>
      query.state.data?.some((doc) => doc.total_chunks === FILE_NOT_INDEXED_CHUNKS)
        ? INDEXING_POLL_MS
        : false,
  });

  const remove = useMutation({
    mutationFn: (doc: UploadedDocument) => filesApi.remove(doc.id),
    onSuccess: () => notifySuccess(fileStrings.DELETED),
    onError: () => notifyFailure(fileStrings.DELETE_ERROR),
    onSettled: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: FILES_QUERY_KEY });
    },
  });

  const setProgress = (key: string, progress: number) =>
    setInTransit((entries) => entries.map((entry) => (entry.key === key ? { ...entry, progress } : entry)));

  /** One request per file, one after the other, so each file has its own progress bar. */
  async function upload(chosen: File[], zip: boolean) {
    if (chosen.length === 0 || inTransit.length > 0) return;
    const refusal = uploadRefusal(chosen, zip);
    if (refusal) {
      notifyFailure(refusal);
      return;
    }
    const entries = chosen.map((file, index) => ({
      key: `${Date.now()}-${index}`,
      name: file.name,
      progress: 0,
    }));
    setInTransit(entries);
    let stored = 0;
    for (const [index, file] of chosen.entries()) {
      const { key } = entries[index]!;
      try {
        const answer = await uploadFiles({
          files: [file],
          visibility,
          zip,
          onProgress: (loaded, total) => setProgress(key, Math.round((loaded / total) * 100)),
        });
        stored += answer.documents.length;
        for (const failure of answer.failed) {
          if (failure.message === fileStrings.NO_CONTENT_PARSED) {
            notifyFailure(fileStrings.emptyDocument(failure.name));
          }
        }
      } catch (error) {
        notifyFailure(refusalMessage(file.name, statusOf(error), serverMessageOf(error)));
      }
      setProgress(key, 100);
      await queryClient.invalidateQueries({ queryKey: FILES_QUERY_KEY });
    }
    setInTransit([]);
    if (stored > 0) notifySuccess(fileStrings.UPLOADED);
  }

  const busy = inTransit.length > 0;
  const documents = list.data ?? [];

  return (
    <Stack p="xl" gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{fileStrings.TITLE}</Title>
        <Group>
          {user.admin && (
            <SegmentedControl
              aria-label="visibility"
              value={visibility}
              onChange={(value) => setVisibility(value as UploadVisibility)}
              data={[
                { value: 'PRIVATE', label: fileStrings.VISIBILITY_PRIVATE },
                { value: 'ORG', label: fileStrings.VISIBILITY_ORG },
              ]}
            />
          )}
          <FileButton
            onChange={(file) => void upload(file ? [file] : [], true)}
            accept={ACCEPTED_ZIP_EXTENSIONS.join(',')}
          >
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconFileZip size={16} />} disabled={busy}>
                {fileStrings.UPLOAD_ZIP}
              </Button>
            )}
          </FileButton>
          <FileButton
            multiple
            onChange={(chosen) => void upload(chosen, false)}
            accept={ACCEPTED_UPLOAD_EXTENSIONS.join(',')}
          >
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} />} disabled={busy}>
                {fileStrings.UPLOAD_FILES}
              </Button>
            )}
          </FileButton>
        </Group>
      </Group>

      {busy && (
        <Alert color="blue" data-testid="upload-progress">
          <Stack gap="xs">
            <Text size="sm">{fileStrings.uploading(inTransit.length)}</Text>
            {inTransit.map((entry) => (
              <Group key={entry.key} gap="sm" wrap="nowrap">
                <Text size="sm" w={220} truncate>
                  {entry.name}
                </Text>
                <Progress value={entry.progress} style={{ flex: 1 }} aria-label={entry.name} />
              </Group>
            ))}
          </Stack>
        </Alert>
      )}

      {list.isError && <Alert color="red">{fileStrings.FETCH_ERROR}</Alert>}

      {list.isSuccess && documents.length === 0 && (
        <Text c="dimmed" data-testid="files-empty">
          {fileStrings.EMPTY}
        </Text>
      )}

      {documents.length > 0 && (
        <Table verticalSpacing="sm">
          <Table.Tbody>
            {documents.map((doc) => {
              const indexing = doc.total_chunks === FILE_NOT_INDEXED_CHUNKS;
              const mayDelete = user.admin || doc.creator?.email === user.email;
              return (
                <Table.Tr key={doc.id} data-testid="file-row" data-name={doc.name}>
                  <Table.Td>
                    <Stack gap={0}>
                      <Text size="sm" fw={500}>
                        {doc.title}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {doc.name}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={indexing ? 'yellow' : 'teal'} variant="light" data-testid="file-status">
                      {indexing ? fileStrings.INDEXING : fileStrings.chunks(doc.total_chunks)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {doc.visibility === 'ORG' ? fileStrings.VISIBILITY_ORG : fileStrings.VISIBILITY_PRIVATE}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm">{new Date(doc.created_at).toLocaleDateString()}</Text>
                      {isPastAgeWarning(doc.created_at) && (
                        <Tooltip label={fileStrings.AGE_WARNING} multiline w={260}>
                          <IconAlertTriangle
                            size={16}
                            color="var(--mantine-color-yellow-7)"
                            aria-label={fileStrings.AGE_WARNING}
                          />
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{doc.creator?.name ?? doc.creator?.email ?? ''}</Text>
                  </Table.Td>
                  <Table.Td>
                    {mayDelete && (
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`${fileStrings.DELETE} ${doc.name}`}
                        onClick={() => setDeleting(doc)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={fileStrings.DELETE} centered>
        <Stack>
          <Text size="sm">{deleting ? fileStrings.deleteConfirm(deleting.name) : ''}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {fileStrings.CANCEL}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting)}
            >
              {fileStrings.DELETE}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
