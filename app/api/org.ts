import { useQuery } from '@tanstack/react-query';
import { orgSchema } from '../../common/api/orgs';
import type { OrgView } from '../../common/api/orgs';
import { useTokens } from '../auth/tokens';
import { apiRequest } from './client';

export const ORG_QUERY_ROOT = ['org'] as const;

export function orgQueryKey(username: string | undefined): readonly unknown[] {
  return [...ORG_QUERY_ROOT, username ?? null];
}

/** The signed-in member's org as `GET /_fetchData/org` answers it: appearance, plan, invitable domains. */
export function useOrg() {
  const tokens = useTokens();
  return useQuery<OrgView>({
    queryKey: orgQueryKey(tokens?.username),
    enabled: tokens !== null,
    staleTime: 60_000,
    queryFn: ({ signal }) => apiRequest('_fetchData/org', { schema: orgSchema, signal }),
  });
}

/** Where invites may go: the org's own domain and its further allowed domains (spec asking-questions §5). */
export function invitableDomainsOf(org: Pick<OrgView, 'domain' | 'allowedDomains'>): string[] {
  return [org.domain, ...org.allowedDomains];
}
