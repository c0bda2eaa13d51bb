// Groups from the Directory API (https://developers.google.com/workspace/admin/directory/reference/rest/v1/members),
// named by their email as Drive sharing names them (googleGroupPrincipal): the Workspace directory connection and
// Drive's org connection both sync them, and the engine keeps each connection's memberships apart while search
// reads their union, so a file shared with a group reaches its members whichever connection listed them.
import type { admin_directory_v1 } from '@googleapis/admin';
import { googleGroupPrincipal, userPrincipal, type GroupMembership } from '../sdk';
import { call, directoryApi, type GoogleContext } from './api';

/** Every group of the Workspace with its direct members, a page of groups at a time. */
export async function* directoryGroups(ctx: GoogleContext): AsyncGenerator<GroupMembership[]> {
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
        group: googleGroupPrincipal(group.email),
        members: await membersOf(directory, group.id),
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
async function membersOf(directory: admin_directory_v1.Admin, groupKey: string) {
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
      else if (member.type === 'GROUP') members.push(googleGroupPrincipal(email));
    }
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return members;
}
