import { useMemo } from 'react';
import type { CurrentUser } from '../../common/api/session';
import { isFlagOn } from '../auth/session';
import { useApps } from '../components/apps/apps-api';
import { enabledApps } from '../components/apps/apps-view';
import type { ScopeOptions } from './sources';

/**
 * The sources a member may pick for a question: their enabled apps, files (their own uploads and the workspace's
 * are always searchable) and verified answers when the flag is on. One definition for the chat and the homepage,
 * so what is picked on the homepage is what /chat can search.
 */
export function useScopeOptions(user: CurrentUser): ScopeOptions {
  const apps = useApps();
  return useMemo<ScopeOptions>(
    () => ({
      apps: enabledApps(apps.data?.apps ?? [], user).map((app) => app.shortname),
      files: true,
      answers: isFlagOn(user, 'answers'),
    }),
    [apps.data, user],
  );
}
