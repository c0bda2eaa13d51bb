// Reads spread across the member's tabs (spec §4.7, §7.6: a cross-tab channel for reads). The message carries no
// data: a tab that hears it asks the server again.

const CHANNEL_NAME = 'scout-inbox';

let channel: BroadcastChannel | null = null;

function inboxChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(CHANNEL_NAME);
  return channel;
}

export function announceRead(): void {
  inboxChannel()?.postMessage({ type: 'read' });
}

/** Calls `listener` when another tab read something; answers the unsubscribe. */
export function onReadElsewhere(listener: () => void): () => void {
  const own = inboxChannel();
  if (!own) return () => undefined;
  const handle = () => listener();
  own.addEventListener('message', handle);
  return () => own.removeEventListener('message', handle);
}
