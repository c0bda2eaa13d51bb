import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { OUTAGE_BANNER_MS } from '../../../common/limits';
import { shell } from '../../../common/strings';
import { isFlagOn, useCurrentUser } from '../../auth/session';
import { STATUS_PAGE_URL } from '../../config';

/** Spec §8: behind the outageBanner flag, a banner about ongoing issues for 30 s, pointing to the status page. */
export function OutageBanner() {
  const user = useCurrentUser().data;
  const on = user !== undefined && isFlagOn(user, 'outageBanner');
  const [shown, setShown] = useState(true);

  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(() => setShown(false), OUTAGE_BANNER_MS);
    return () => clearTimeout(timer);
  }, [on]);

  if (!on || !shown) return null;
  return (
    <Alert
      role="status"
      color="yellow"
      radius={0}
      icon={<IconAlertTriangle size={18} />}
      withCloseButton
      onClose={() => setShown(false)}
      data-testid="outage-banner"
    >
      {STATUS_PAGE_URL ? (
        <Anchor href={STATUS_PAGE_URL} target="_blank" rel="noopener noreferrer" size="sm">
          {shell.OUTAGE_BANNER}
        </Anchor>
      ) : (
        shell.OUTAGE_BANNER
      )}
    </Alert>
  );
}
