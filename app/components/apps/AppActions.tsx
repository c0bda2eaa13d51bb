import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AppConnectionView } from '../../../common/api/apps';
import { DEMO_URL } from '../../config';
import { appsCopy } from '../../strings';
import { apps as appStrings } from '../../../common/strings';
import { useDisconnectApp } from './apps-api';
import type { AppEntry, ConnectOption, Upgrade } from './apps-view';
import { ConnectDialog, type ConnectTarget } from './ConnectDialog';

/** What an app's buttons can start; one provider per screen renders the dialogs they open. */
export interface AppActions {
  /** Opens the connect dialog, or the upgrade prompt when the option says so. */
  connect(entry: AppEntry, isOrg: boolean, option: ConnectOption): void;
  reconnect(entry: AppEntry, connection: AppConnectionView): void;
  /** Asks first (spec §4: Disconnect asks for confirmation). */
  disconnect(connection: AppConnectionView): void;
}

const AppActionsContext = createContext<AppActions | null>(null);

export function useAppActions(): AppActions {
  const actions = useContext(AppActionsContext);
  if (!actions) throw new Error('useAppActions() used outside AppActionsProvider');
  return actions;
}

export function AppActionsProvider({ children }: { children: ReactNode }) {
  const [connecting, setConnecting] = useState<ConnectTarget | null>(null);
  const [confirming, setConfirming] = useState<AppConnectionView | null>(null);
  const [upgrade, setUpgrade] = useState<Upgrade | null>(null);
  const disconnect = useDisconnectApp();

  const actions = useMemo<AppActions>(
    () => ({
      connect: (entry, isOrg, option) => {
        if (option.state === 'upgrade') setUpgrade(option.upgrade);
        else if (option.state === 'open') setConnecting({ entry, isOrg });
      },
      reconnect: (entry, connection) =>
        setConnecting({ entry, isOrg: connection.isOrg, reconnect: connection }),
      disconnect: (connection) => setConfirming(connection),
    }),
    [],
  );

  return (
    <AppActionsContext.Provider value={actions}>
      {children}
      {connecting && (
        <ConnectDialog
          key={`${connecting.entry.shortname}:${connecting.isOrg}`}
          target={connecting}
          onClose={() => setConnecting(null)}
        />
      )}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? appsCopy.disconnectTitle(confirming.displayName) : ''}
        centered
      >
        {confirming && (
          <Stack data-testid="disconnect-confirm">
            <Text size="sm">{appsCopy.disconnectText(confirming.displayName, confirming.isOrg)}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {appsCopy.CANCEL}
              </Button>
              <Button
                color="red"
                loading={disconnect.isPending}
                data-testid="disconnect-confirm-button"
                onClick={() =>
                  disconnect.mutate({ connection: confirming }, { onSettled: () => setConfirming(null) })
                }
              >
                {appStrings.DISCONNECT}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Modal opened={upgrade !== null} onClose={() => setUpgrade(null)} title={upgrade?.title} centered>
        <Stack data-testid="upgrade-prompt">
          <Text size="sm">{upgrade?.text}</Text>
          <Group justify="flex-end">
            <Button component="a" href={DEMO_URL} target="_blank" rel="noopener noreferrer">
              {appsCopy.CONTACT_SALES}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </AppActionsContext.Provider>
  );
}
