import { useCallback, useEffect, useState } from 'react';
import { healthSchema } from '../../../common/api/health';
import { CONNECTIVITY_CHECK_TIMEOUT_MS, OFFLINE_POLL_MS } from '../../../common/limits';
import { apiRequest } from '../../api/client';
import { NetworkError } from '../../api/errors';

/**
 * The connectivity check (spec §9: 10000 ms): any answer from our server, even an unhealthy one, means the network
 * is back; only a request that never gets an answer means it is not.
 */
export async function isServerReachable(): Promise<boolean> {
  try {
    await apiRequest('health', {
      schema: healthSchema,
      auth: false,
      timeoutMs: CONNECTIVITY_CHECK_TIMEOUT_MS,
    });
    return true;
  } catch (error) {
    return !(error instanceof NetworkError);
  }
}

/**
 * Whether the browser is online (spec §4.4): offline as soon as the browser says so; online again only once the
 * server answers, checked when the browser says it is back and every 10 seconds until then (a browser can call
 * itself online behind a network that reaches nothing).
 */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  const recheck = useCallback(
    () => void isServerReachable().then((reachable) => reachable && setOnline(true)),
    [],
  );

  useEffect(() => {
    const goOffline = () => setOnline(false);
    window.addEventListener('offline', goOffline);
    window.addEventListener('online', recheck);
    return () => {
      window.removeEventListener('offline', goOffline);
      window.removeEventListener('online', recheck);
    };
  }, [recheck]);

  useEffect(() => {
    if (online) return;
    const timer = setInterval(recheck, OFFLINE_POLL_MS);
    return () => clearInterval(timer);
  }, [online, recheck]);

  return online;
}
