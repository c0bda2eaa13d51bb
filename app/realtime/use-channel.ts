// Listening to a realtime channel from a React screen, through the tab's one socket (connection.ts).
import { useEffect, useRef } from 'react';
import type { RealtimeChannel } from '../../common/api/realtime';
import { realtimeLink, type ChannelListener, type EventOf } from './connection';

/**
 * Calls `onEvent` with the channel's events while the component is mounted (and `channel` is not null), and
 * `onResync` when events may have been missed. The latest callbacks are used; changing them does not re-subscribe.
 */
export function useRealtimeChannel<C extends RealtimeChannel>(
  channel: C | null,
  onEvent: (event: EventOf<C>) => void,
  onResync?: () => void,
): void {
  const handlers = useRef<ChannelListener<C>>({ onEvent, onResync });
  useEffect(() => {
    handlers.current = { onEvent, onResync };
  });
  useEffect(() => {
    if (channel === null) return;
    return realtimeLink.listen(channel, {
      onEvent: (event) => handlers.current.onEvent(event),
      onResync: () => handlers.current.onResync?.(),
    });
  }, [channel]);
}
