import {
  Alert,
  Anchor,
  Button,
  Code,
  FileInput,
  Group,
  List,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { AppConnectionView } from '../../../common/api/apps';
import { uploadMessages } from '../../../common/api/uploads';
import {
  connectFormCopy,
  connectFormOf,
  connectRequestOf,
  isConnectFormFilled,
  type ConnectField,
} from '../../../common/connect-forms';
import { APP_FAILURE_TOAST_MS, CONNECT_BUTTON_WIDTH_PX, UPLOAD_MAX_FILE_BYTES } from '../../../common/limits';
import { apps as appStrings, files as fileStrings } from '../../../common/strings';
import { isZipUpload } from '../../../common/uploads';
import { serverMessageOf } from '../../api/errors';
import { useSignedInUser } from '../../auth/session';
import { newTraceId } from '../../crash';
import { PHOTO_IMAGE } from '../../images';
import { appsCopy } from '../../strings';
import { uploadFiles } from '../../screens/files/api';
import { ImagePicker } from '../ImagePicker';
import { useAdminConsentConnect, useDelegation, useInstallApp, useOAuthConnect } from './apps-api';
import { openOAuthPopup } from './oauth-popup';
import { notifyFailure } from '../toast';
import { definitionOf, type AppEntry } from './apps-view';

export interface ConnectTarget {
  readonly entry: AppEntry;
  readonly isOrg: boolean;
  /** The connection to reconnect, when this is a Reconnect. */
  readonly reconnect?: AppConnectionView;
}

/**
 * An app's connect dialog (spec §2, §5): its numbered instructions, the credential fields of its install payload,
 * the notes on what the connecting account needs, and a 130 px Connect button that stays disabled until every
 * required field holds more than spaces.
 */
export function ConnectDialog({ target, onClose }: { target: ConnectTarget; onClose: () => void }) {
  const user = useSignedInUser();
  const app = definitionOf(target.entry);
  const form = connectFormOf(app, target.isOrg, user.org.domain);
  const available = target.isOrg ? target.entry.available.org : target.entry.available.individual;
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  // One id per dialog: a site's archive is uploaded under it before the install names it (Google Sites).
  const [generatedId] = useState(newTraceId);
  const install = useInstallApp();
  const oauth = useOAuthConnect();
  const adminConsent = useAdminConsentConnect();
  const pending = install.isPending || oauth.isPending || adminConsent.isPending;
  const filled = isConnectFormFilled(form, values);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || pending) return;
    const request = connectRequestOf(form, values, target.isOrg, () => generatedId);
    if (!request.ok) {
      setError(request.message);
      return;
    }
    setError(null);
    if (form.payload === 'oauth') {
      const popup = openOAuthPopup();
      if (!popup) {
        notifyFailure(appStrings.POPUP_BLOCKED, APP_FAILURE_TOAST_MS);
        return;
      }
      const { credentials, options } = request.body;
      oauth.mutate(
        {
          app: app.shortname,
          displayName: app.displayName,
          form,
          popup,
          body: {
            admin: target.isOrg,
            options: { ...options, ...credentials },
            ...(target.reconnect ? { appId: target.reconnect.id } : {}),
          },
        },
        { onSuccess: (connected) => connected && onClose() },
      );
      return;
    }
    const body = { ...request.body, ...(target.reconnect ? { appId: target.reconnect.id } : {}) };
    if (form.consent === 'microsoftAdminConsent') {
      const popup = openOAuthPopup();
      if (!popup) {
        notifyFailure(appStrings.POPUP_BLOCKED, APP_FAILURE_TOAST_MS);
        return;
      }
      adminConsent.mutate(
        {
          app: app.shortname,
          displayName: app.displayName,
          form,
          popup,
          email: String(request.body.options.email),
          body,
        },
        { onSuccess: (connected) => connected && onClose() },
      );
      return;
    }
    install.mutate(
      {
        app: app.shortname,
        displayName: app.displayName,
        form,
        body,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal opened onClose={onClose} title={appsCopy.connectTitle(app.displayName)} centered size="lg">
      <form onSubmit={submit} data-testid="connect-dialog" data-app={app.shortname} noValidate>
        <Stack gap="md">
          <List type="ordered" spacing="xs" size="sm" data-testid="connect-instructions">
            {form.instructions.map((step) => (
              <List.Item key={step}>{step}</List.Item>
            ))}
          </List>
          {form.fields.map((field, index) => {
            const common = {
              label: field.label,
              placeholder: field.placeholder,
              value: values[field.key] ?? '',
              'data-autofocus': index === 0 ? true : undefined,
              'data-testid': `connect-field-${field.key}`,
              error: index === 0 && error ? error : undefined,
              onChange: (event: ChangeEvent<HTMLInputElement>) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [field.key]: value }));
                setError(null);
              },
            };
            if (field.input === 'archive')
              return (
                <SiteArchiveField
                  key={field.key}
                  field={field}
                  siteId={generatedId}
                  isOrg={target.isOrg}
                  onUploaded={(uploadId) => setValues((current) => ({ ...current, [field.key]: uploadId }))}
                />
              );
            if (field.input === 'image')
              return (
                <ImagePicker
                  key={field.key}
                  label={field.label}
                  hint={appsCopy.ICON_HINT}
                  uploadLabel={appsCopy.UPLOAD_ICON}
                  removeLabel={appsCopy.REMOVE_ICON}
                  kind={PHOTO_IMAGE}
                  value={values[field.key] || null}
                  onChange={(value) => setValues((current) => ({ ...current, [field.key]: value ?? '' }))}
                />
              );
            return field.secret ? (
              <PasswordInput key={field.key} {...common} autoComplete="off" />
            ) : (
              <TextInput key={field.key} {...common} type={field.input} autoComplete="off" />
            );
          })}
          {form.fields.length === 0 && error && (
            <Text c="red" size="sm">
              {error}
            </Text>
          )}
          {form.consent === 'googleDelegation' && <DelegationDetails app={app.shortname} />}
          {form.requirements.length > 0 && (
            <Alert
              variant="light"
              color="gray"
              icon={<IconInfoCircle size={18} />}
              title={appsCopy.REQUIREMENTS}
              data-testid="connect-requirements"
            >
              <List size="sm" spacing={4}>
                {form.requirements.map((note) => (
                  <List.Item key={note}>{note}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          {!available && (
            <Alert variant="light" color="orange">
              {appsCopy.UNAVAILABLE}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {appsCopy.CANCEL}
            </Button>
            <Button
              type="submit"
              w={CONNECT_BUTTON_WIDTH_PX}
              disabled={!filled || !available}
              loading={pending}
              data-testid="connect-submit"
            >
              {appStrings.CONNECT}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Google's domain-wide delegation has no consent page to open: the super admin pastes Scout's client ID and the
 * scopes into the Admin console's delegation page, which the link opens in a new tab; Connect then checks it.
 */
function DelegationDetails({ app }: { app: string }) {
  const delegation = useDelegation(app, true);
  const copy = connectFormCopy.delegation;
  if (delegation.isError)
    return (
      <Text c="red" size="sm">
        {serverMessageOf(delegation.error) ?? appsCopy.UNAVAILABLE}
      </Text>
    );
  if (!delegation.data) return null;
  return (
    <Alert variant="light" color="blue" title={copy.TITLE} data-testid="connect-delegation">
      <Stack gap={6}>
        <Text size="sm">{copy.CLIENT_ID}</Text>
        <Code block data-testid="delegation-client-id">
          {delegation.data.clientId}
        </Code>
        <Text size="sm">{copy.SCOPES}</Text>
        <Code block data-testid="delegation-scopes">
          {delegation.data.scopes.join(',')}
        </Code>
        <Anchor href={delegation.data.adminConsoleUrl} target="_blank" rel="noopener noreferrer" size="sm">
          {copy.OPEN_ADMIN_CONSOLE}
        </Anchor>
      </Stack>
    </Alert>
  );
}

type ArchiveUpload = { state: 'idle' | 'uploading' | 'done' } | { state: 'failed'; message: string };

/**
 * A site's export archive (spec §5: a single zip file only). It is uploaded as soon as it is picked, under the
 * dialog's site id, and reports its upload's id only once the upload has finished: Connect stays disabled until
 * then, so the install always comes after the upload.
 */
function SiteArchiveField(props: {
  field: ConnectField;
  siteId: string;
  isOrg: boolean;
  onUploaded: (uploadId: string) => void;
}) {
  const { field, siteId, isOrg, onUploaded } = props;
  const [upload, setUpload] = useState<ArchiveUpload>({ state: 'idle' });
  const [percent, setPercent] = useState(0);

  const pick = (file: File | null) => {
    onUploaded('');
    if (!file) {
      setUpload({ state: 'idle' });
      return;
    }
    if (!isZipUpload(file)) {
      setUpload({ state: 'failed', message: uploadMessages.NOT_A_ZIP });
      return;
    }
    if (file.size > UPLOAD_MAX_FILE_BYTES) {
      setUpload({ state: 'failed', message: fileStrings.fileTooLarge(file.name) });
      return;
    }
    setUpload({ state: 'uploading' });
    setPercent(0);
    uploadFiles({
      files: [file],
      // an org connection's archive stays readable to whichever admin reconnects it
      visibility: isOrg ? 'ORG' : 'PRIVATE',
      zip: true,
      siteId,
      onProgress: (loaded, total) => setPercent(total > 0 ? Math.floor((loaded / total) * 100) : 0),
    }).then(
      (stored) => {
        setUpload({ state: 'done' });
        onUploaded(stored.id);
      },
      (error: unknown) =>
        setUpload({ state: 'failed', message: serverMessageOf(error) ?? fileStrings.UPLOAD_ERROR }),
    );
  };

  return (
    <FileInput
      label={field.label}
      accept=".zip,application/zip"
      clearable
      disabled={upload.state === 'uploading'}
      onChange={pick}
      description={
        upload.state === 'uploading'
          ? `${fileStrings.uploading(1)} (${percent}%)`
          : upload.state === 'done'
            ? fileStrings.UPLOADED
            : undefined
      }
      error={upload.state === 'failed' ? upload.message : undefined}
      data-testid={`connect-field-${field.key}`}
      data-upload-state={upload.state}
    />
  );
}
