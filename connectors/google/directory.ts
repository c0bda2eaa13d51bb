// Groups from the Directory API (https://developers.google.com/workspace/admin/directory/reference/rest/v1/members),
// which every Google connector syncs for itself: the engine keeps groups per connection, so the groups that Drive
// sharing names must come from the Drive connection's own permission sync.
import type { admin_directory_v1 } from '@googleapis/admin';
import type { AppShortname } from '../../common/catalogue';
import { groupPrincipal, userPrincipal, type GroupMembership } from '../sdk';
import { call, directoryApi, type GoogleContext } from './api';

/** Every group of the Workspace with its direct members, a page of groups at a time. */
export async function* directoryGroups(
  ctx: GoogleContext,
  source: AppShortname,
): AsyncGenerator<GroupMembership[]> {
  const directory = directoryApi(ctx);
  let pageToken: string | undefined;
  do {
    const page = await call(
      directory.groups.list({
        customer: 'my_customer',
        maxResults: 200,
        pageToken,
        fields: 'nextPageToken,groups(id,email)',
      }),
    );
    const memberships: GroupMembership[] = [];
    for (const group of page.groups ?? []) {
      if (!group.email || !group.id) continue;
      memberships.push({
        group: groupPrincipal(source, group.email.toLowerCase()),
        members: await membersOf(directory, group.id, source),
      });
    }
    yield memberships;
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
}

/**
 * A group's direct members: people, and nested groups (the engine expands those). A 'CUSTOMER' member (everyone in
 * the Workspace) and suspended accounts are left out: neither maps to a person who may read.
 */
async function membersOf(directory: admin_directory_v1.Admin, groupKey: string, source: AppShortname) {
  const members: GroupMembership['members'] = [];
  let pageToken: string | undefined;
  do {
    const page = await call(
      directory.members.list({
        groupKey,
        maxResults: 200,
        pageToken,
        fields: 'nextPageToken,members(email,type,status)',
      }),
    );
    for (const member of page.members ?? []) {
      const email = member.email?.toLowerCase();
      if (!email || member.status === 'SUSPENDED') continue;
      if (member.type === 'USER') members.push(userPrincipal(email));
      else if (member.type === 'GROUP') members.push(groupPrincipal(source, email));
    }
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return members;
}
