import { Alert } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { shell } from '../../../common/strings';
import { useOnline } from './network-status';

/** Spec §8: sticky while the network is offline, on every screen, signed in or not. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <Alert
      role="alert"
      color="red"
      variant="filled"
      radius={0}
      icon={<IconWifiOff size={18} />}
      data-testid="offline-banner"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
    >
      {shell.OFFLINE}
    </Alert>
  );
}
