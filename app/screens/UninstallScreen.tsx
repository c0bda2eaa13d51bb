import { useEffect } from 'react';
import { Center, Text } from '@mantine/core';
import { shell } from '../../common/strings';
import { UNINSTALL_REDIRECT_DELAY_MS, UNINSTALL_URL } from '../config';

/** Where the browser extension sends someone who uninstalled it: a short notice, then the external page. */
export function UninstallScreen() {
  useEffect(() => {
    // replace, not assign: Back should not return to a page that only redirects.
    const timer = setTimeout(() => window.location.replace(UNINSTALL_URL), UNINSTALL_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Center h="100%" p="xl">
      <Text size="lg">{shell.REDIRECTING}</Text>
    </Center>
  );
}
