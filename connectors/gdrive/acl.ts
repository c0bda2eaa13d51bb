// Who may read a Drive file, from its permissions (https://developers.google.com/workspace/drive/api/reference/rest/v3/permissions).
// A file's permission list already holds what it inherits: the parent folders' sharing in My Drive, and the shared
// drive's members (permissionDetails.inherited) for a shared-drive item, so the list is the whole answer.
import type { drive_v3 } from '@googleapis/drive';
import { ORG_PRINCIPAL, googleGroupPrincipal, userPrincipal, type Principal } from '../sdk';

/**
 * The readers the permissions name. Users and groups are named by their email; a group is the organisation's Google
 * group, whose members any of the org's Google connections syncing the directory supplies. A domain grant counts as the organisation only for the
 * organisation's own domain; another domain's members are not Scout members. A domain or anyone grant counts only
 * when `allowFileDiscovery` is set: without it Drive itself keeps the file out of those people's search and only
 * lets someone who was handed the link open it, so listing it in Scout's search would reveal what Drive hides.
 * Permissions of deleted accounts and of published views (Docs' 'publish to the web', which exposes a rendered copy
 * rather than the file) grant nothing here.
 */
export function readersOf(
  permissions: readonly drive_v3.Schema$Permission[],
  orgDomain: string,
): Principal[] {
  const readers = new Set<Principal>();
  for (const permission of permissions) {
    if (permission.deleted || permission.view === 'published') continue;
    const email = permission.emailAddress?.trim().toLowerCase();
    switch (permission.type) {
      case 'user':
        if (email) readers.add(userPrincipal(email));
        break;
      case 'group':
        if (email) readers.add(googleGroupPrincipal(email));
        break;
      case 'domain':
        if (permission.allowFileDiscovery && permission.domain?.toLowerCase() === orgDomain)
          readers.add(ORG_PRINCIPAL);
        break;
      case 'anyone':
        if (permission.allowFileDiscovery) readers.add(ORG_PRINCIPAL);
        break;
    }
  }
  return [...readers].sort();
}
