import { Badge, Box, Button, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { BadgeTone, StatusBadge } from '../../../common/connection-status';
import { CONNECT_BUTTON_WIDTH_PX } from '../../../common/limits';
import { apps as appStrings } from '../../../common/strings';
import type { ConnectOption } from './apps-view';

const TONE_COLORS: Record<BadgeTone, string> = {
  progress: 'blue',
  connected: 'teal',
  muted: 'gray',
  error: 'red',
  disabling: 'orange',
};

/**
 * One column's status (spec §4): a label, a Connected badge that turns into Disconnect on hover or focus, a
 * Reconnect button, a Connect button for the column's kind of connection, or a blank placeholder.
 */
export function ConnectionBadge({
  badge,
  connectOption,
  onConnect,
  onReconnect,
  onDisconnect,
}: {
  badge: StatusBadge;
  /** Whether this column's Connect opens the dialog, the upgrade prompt, or is refused. */
  connectOption: ConnectOption;
  onConnect: () => void;
  onReconnect: () => void;
  onDisconnect: () => void;
}) {
  const [hover, setHover] = useState(false);
  switch (badge.kind) {
    case 'placeholder':
      return (
        <Box
          data-testid="connection-badge"
          data-status="placeholder"
          title={badge.tooltip}
          aria-label={badge.tooltip}
          h={28}
        />
      );
    case 'connect':
      if (connectOption.state === 'hidden')
        return <Box data-testid="connection-badge" data-status="placeholder" h={28} />;
      return (
        <Tooltip
          label={connectOption.state === 'disabled' ? connectOption.reason : ''}
          disabled={connectOption.state !== 'disabled'}
          withinPortal
        >
          <Box component="span" display="inline-block">
            <Button
              size="xs"
              variant="default"
              w={CONNECT_BUTTON_WIDTH_PX}
              disabled={connectOption.state === 'disabled'}
              onClick={onConnect}
              data-testid="connection-badge"
              data-status="connect"
            >
              {appStrings.CONNECT}
            </Button>
          </Box>
        </Tooltip>
      );
    case 'reconnect':
      return (
        <Button
          size="xs"
          color="orange"
          w={CONNECT_BUTTON_WIDTH_PX}
          onClick={onReconnect}
          data-testid="connection-badge"
          data-status="reconnect"
        >
          {appStrings.RECONNECT}
        </Button>
      );
    case 'label': {
      const color = TONE_COLORS[badge.tone];
      if (badge.disconnectOnHover)
        return (
          <Button
            size="xs"
            variant={hover ? 'filled' : 'light'}
            color={hover ? 'red' : color}
            w={CONNECT_BUTTON_WIDTH_PX}
            onMouseEnter={() => setHover(true)}
            onMouseLeave={() => setHover(false)}
            onFocus={() => setHover(true)}
            onBlur={() => setHover(false)}
            onClick={onDisconnect}
            data-testid="connection-badge"
            data-status={badge.tone}
          >
            {hover ? appStrings.DISCONNECT : badge.label}
          </Button>
        );
      const label = (
        <Badge
          variant="light"
          color={color}
          tt="none"
          size="lg"
          radius="sm"
          data-testid="connection-badge"
          data-status={badge.tone}
          tabIndex={badge.tooltip ? 0 : undefined}
        >
          {badge.label}
        </Badge>
      );
      return badge.tooltip ? (
        <Tooltip label={badge.tooltip} withinPortal>
          {label}
        </Tooltip>
      ) : (
        label
      );
    }
  }
}
