// How often each app has been put in front of the user on the reconnect card (shell-and-account §3 User
// reconnectedApps, §4.8). The server keeps no such count yet, so it lives in this browser, per user.

const storageKey = (userId: string) => `scout.reconnectedApps.${userId}`;

export function readReconnectCounts(userId: string): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey(userId)) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((pair): pair is [string, number] => typeof pair[1] === 'number'),
    );
  } catch {
    return {};
  }
}

/** Closing the card sets the count of each listed app to 1 (spec §4.8), keeping any higher count. */
export function closeReconnectCard(userId: string, appNames: readonly string[]): void {
  const counts = readReconnectCounts(userId);
  for (const name of appNames) counts[name] = Math.max(counts[name] ?? 0, 1);
  try {
    window.localStorage.setItem(storageKey(userId), JSON.stringify(counts));
  } catch {
    // Storage blocked: the card simply shows again next time.
  }
}

/** Following the card to reconnect an app counts once for it. */
export function countReconnect(userId: string, appName: string): void {
  const counts = readReconnectCounts(userId);
  counts[appName] = (counts[appName] ?? 0) + 1;
  try {
    window.localStorage.setItem(storageKey(userId), JSON.stringify(counts));
  } catch {
    // Storage blocked: nothing is counted.
  }
}
