// The apps resource through the one API client: the catalogue with the viewer's and the org's connections, and the
// install and disconnect calls with their toasts (spec apps-and-connections §4, §8).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  appsResponseSchema,
  disconnectResponseSchema,
  installResponseSchema,
  type AppConnectionView,
  type AppsResponse,
  type InstallRequest,
} from '../../../common/api/apps';
import {
  delegationResponseSchema,
  oauthStartResponseSchema,
  type AdminConsentStartRequest,
  type OAuthStartRequest,
} from '../../../common/api/oauth';
import { getApp, isInstant } from '../../../common/catalogue';
import { installFailureMessage, type ConnectForm } from '../../../common/connect-forms';
import { APP_FAILURE_TOAST_MS, APP_INSTALL_SUCCESS_TOAST_MS } from '../../../common/limits';
import { apps as appStrings } from '../../../common/strings';
import { api } from '../../api/client';
import { statusOf } from '../../api/errors';
import { useTokens } from '../../auth/tokens';
import { notifyFailure, notifySuccess } from '../toast';
import { isSettling } from './apps-view';
import { awaitOAuthResult } from './oauth-popup';

export const APPS_QUERY_ROOT = ['apps'] as const;

/** How often the apps are re-read while a connection syncs or goes away, so its badge follows it. */
export const APPS_POLL_MS = 1500;

export const appsApi = {
  list: (signal?: AbortSignal): Promise<AppsResponse> =>
    api.get('_fetchData/apps', { schema: appsResponseSchema, signal }),
  install: (app: string, body: InstallRequest) =>
    api.put(`app/install/${encodeURIComponent(app)}`, { body, schema: installResponseSchema }),
  startOAuth: (app: string, body: OAuthStartRequest) =>
    api.put(`oauth/${encodeURIComponent(app)}`, { body, schema: oauthStartResponseSchema }),
  startAdminConsent: (app: string, body: AdminConsentStartRequest) =>
    api.put(`oauth/${encodeURIComponent(app)}/admin-consent`, { body, schema: oauthStartResponseSchema }),
  delegation: (app: string, signal?: AbortSignal) =>
    api.get(`oauth/${encodeURIComponent(app)}/delegation`, { schema: delegationResponseSchema, signal }),
  disconnect: (app: string, connection: Pick<AppConnectionView, 'id' | 'isOrg'>) =>
    api.delete(`app/disconnect_app_name/${encodeURIComponent(app)}`, {
      query: { admin: connection.isOrg, appId: connection.id },
      schema: disconnectResponseSchema,
    }),
};

export function useApps() {
  const tokens = useTokens();
  return useQuery({
    queryKey: [...APPS_QUERY_ROOT, tokens?.username ?? null],
    enabled: tokens !== null,
    queryFn: ({ signal }) => appsApi.list(signal),
    refetchInterval: (query) =>
      query.state.data && isSettling(query.state.data.apps) ? APPS_POLL_MS : false,
  });
}

/** What a Google Workspace admin authorises in the Admin console before an org connect (none for other apps). */
export function useDelegation(app: string, needed: boolean) {
  return useQuery({
    queryKey: [...APPS_QUERY_ROOT, 'delegation', app],
    enabled: needed,
    queryFn: ({ signal }) => appsApi.delegation(app, signal),
    retry: false,
  });
}

/**
 * The install's failure toast (8 s): the server's own sentence when it refused the input ('Incorrect API key.
 * Please try again.', 'Failed to install {app}: …', a plan or role refusal), otherwise the dialog kind's
 * 'Failed to install {app}, please verify the provided …'.
 */
export function installErrorMessage(error: unknown, form: ConnectForm, app: string): string {
  const status = statusOf(error);
  if (status !== null && status >= 400 && status < 500 && status !== 404 && error instanceof Error)
    return error.message;
  return installFailureMessage(form, app);
}

/** The success toast (6 s): instant apps are searchable as they sync, others report back when done. */
function notifyConnected(displayName: string, instant: boolean): void {
  notifySuccess(
    instant ? appStrings.connected(displayName) : appStrings.startedConnecting(displayName),
    APP_INSTALL_SUCCESS_TOAST_MS,
  );
}

export function useInstallApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { app: string; displayName: string; form: ConnectForm; body: InstallRequest }) =>
      appsApi.install(input.app, input.body),
    onSuccess: ({ connection }, { displayName }) => {
      notifyConnected(displayName, connection.isInstant);
      void queryClient.invalidateQueries({ queryKey: APPS_QUERY_ROOT });
    },
    onError: (error, { displayName, form }) =>
      notifyFailure(installErrorMessage(error, form, displayName), APP_FAILURE_TOAST_MS),
  });
}

/**
 * Points the popup, opened by the click itself, at the address the server answers (closing it again if the server
 * refuses), and waits for its result: true when the provider granted access; a refusal is toasted, a popup closed
 * before the end is quiet.
 */
async function popupGranted(
  input: { app: string; displayName: string; popup: Window },
  start: () => Promise<{ url: string }>,
): Promise<boolean> {
  let url: string;
  try {
    ({ url } = await start());
  } catch (error) {
    input.popup.close();
    throw error;
  }
  input.popup.location.href = url;
  const result = await awaitOAuthResult(input.popup, input.app);
  if (result === 'closed') return false;
  if (!result.success) {
    notifyFailure(result.message ?? appStrings.oauthInstallFailed(input.displayName), APP_FAILURE_TOAST_MS);
    return false;
  }
  return true;
}

/**
 * Connects through the OAuth popup. `popup` was opened by the click itself; it is pointed at the provider once the
 * server answers, and closed again if the server refuses. Resolves true when the app got connected.
 */
export function useOAuthConnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      app: string;
      displayName: string;
      form: ConnectForm;
      popup: Window;
      body: OAuthStartRequest;
    }): Promise<boolean> => {
      const granted = await popupGranted(input, () => appsApi.startOAuth(input.app, input.body));
      void queryClient.invalidateQueries({ queryKey: APPS_QUERY_ROOT });
      if (!granted) return false;
      const definition = getApp(input.app);
      notifyConnected(
        input.displayName,
        definition ? isInstant(definition, input.body.admin ?? false) : false,
      );
      return true;
    },
    onError: (error, { displayName, form }) =>
      notifyFailure(installErrorMessage(error, form, displayName), APP_FAILURE_TOAST_MS),
  });
}

/**
 * A Microsoft app's org connect: the tenant's admin consent in the popup (opened by the click itself), then the
 * marketplace install, which the server completes with the consented tenant. Resolves true when the app got
 * connected; a popup closed before the consent ends it quietly, as the OAuth popup does.
 */
export function useAdminConsentConnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      app: string;
      displayName: string;
      form: ConnectForm;
      popup: Window;
      email: string;
      body: InstallRequest;
    }): Promise<boolean> => {
      const granted = await popupGranted(input, () =>
        appsApi.startAdminConsent(input.app, {
          email: input.email,
          ...(input.body.appId ? { appId: input.body.appId } : {}),
        }),
      );
      if (!granted) return false;
      const { connection } = await appsApi.install(input.app, input.body);
      notifyConnected(input.displayName, connection.isInstant);
      void queryClient.invalidateQueries({ queryKey: APPS_QUERY_ROOT });
      return true;
    },
    onError: (error, { displayName, form }) =>
      notifyFailure(installErrorMessage(error, form, displayName), APP_FAILURE_TOAST_MS),
  });
}

export function useDisconnectApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { connection: AppConnectionView }) =>
      appsApi.disconnect(input.connection.appName, input.connection),
    onSuccess: (_answer, { connection }) => {
      notifySuccess(appStrings.disconnected(connection.displayName));
      void queryClient.invalidateQueries({ queryKey: APPS_QUERY_ROOT });
    },
    onError: (_error, { connection }) =>
      notifyFailure(appStrings.failedToDisconnect(connection.displayName), APP_FAILURE_TOAST_MS),
  });
}
