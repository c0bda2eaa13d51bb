import { useMemo } from 'react';
import { ReferenceSource } from '../../common/api/messages';
import type { CurrentUser } from '../../common/api/session';
import { isFlagOn } from '../auth/session';
import { useSearchableSources } from './api';
import type { ScopeOptions } from './sources';

/**
 * The sources a member may pick for a question: every app the server says they can search (their own and the org's
 * working connections, and apps whose documents they may read), files (their own uploads and the workspace's are
 * always searchable) and verified answers when the flag is on, each with its readable document count. One
 * definition for the chat and the homepage, so what is picked on the homepage is what /chat can search.
 */
export function useScopeOptions(user: CurrentUser): ScopeOptions {
  const sources = useSearchableSources();
  return useMemo<ScopeOptions>(() => {
    const data = sources.data;
    return {
      apps: (data?.apps ?? []).map((app) => app.appName),
      files: true,
      answers: isFlagOn(user, 'answers'),
      numDocs: data && {
        ...Object.fromEntries(data.apps.map((app) => [app.appName, app.numDocs])),
        [ReferenceSource.files]: data.files.numDocs,
        [ReferenceSource.verifiedAnswers]: data.answers.numDocs,
      },
    };
  }, [sources.data, user]);
}
