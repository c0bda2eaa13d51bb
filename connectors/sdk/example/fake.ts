// A fake "notes" API for the SDK's own tests: cursor-paginated notes, a page-numbered change feed with deletes,
// Link-paginated ids, groups, per-note sharing (looked up in batches by id) and a bearer token. It stands in for a vendor to prove the
// interface, the HTTP client and the conformance kit together; real connectors fake their real vendor.
import { cursorPages, linkPages, numberedPages, startFakeServer, type FakeServer } from '../fake-server';

export type NoteVisibility = 'public' | 'workspace' | 'restricted';

export interface Note {
  id: string;
  title: string;
  body: string;
  author: { name: string; email: string };
  folder_id: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  /** Absent on notes created before sharing existed: the API cannot say who may read them. */
  visibility?: NoteVisibility;
  shared_with?: { users: string[]; groups: string[] };
}

export type SharingSettings = Pick<Note, 'visibility' | 'shared_with'>;

export interface NotesGroup {
  id: string;
  members: ({ type: 'user'; email: string } | { type: 'group'; id: string })[];
}

/** The most ids `/api/notes/permissions` answers at once. */
export const PERMISSIONS_MAX_IDS = 100;

type Change =
  { type: 'note.updated'; id: string; at: string } | { type: 'note.deleted'; id: string; at: string };

export interface NotesFake {
  readonly server: FakeServer;
  readonly token: string;
  upsert(note: Partial<Note> & Pick<Note, 'id'>): Note;
  remove(id: string): void;
  /** Changes who may read a note as sharing does at such vendors: no change-feed entry, no new updated_at. */
  setSharing(id: string, sharing: SharingSettings): void;
  setGroups(groups: NotesGroup[]): void;
  /** The role the token's user has: validate() wants an admin. */
  setRole(role: 'admin' | 'member'): void;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString();
}

/** Seven notes, newest first by age; the oldest lies outside the three-year sync window. */
export function seedNotes(): Note[] {
  const note = (id: string, days: number, extra: Partial<Note>): Note => ({
    id,
    title: `Note ${id}`,
    body: `Body of ${id}.`,
    author: { name: 'Ada Lovelace', email: 'Ada@Example.com' },
    folder_id: null,
    tags: [],
    created_at: daysAgo(days + 1),
    updated_at: daysAgo(days),
    ...extra,
  });
  return [
    note('n1', 1, { visibility: 'workspace', tags: ['handbook'] }),
    note('n2', 10, {
      visibility: 'restricted',
      shared_with: { users: ['Grace@Example.com'], groups: ['eng'] },
    }),
    note('n3', 100, { visibility: 'public', folder_id: 'n1' }),
    note('n4', 400, {}),
    note('n5', 800, { visibility: 'restricted', shared_with: { users: [], groups: [] } }),
    note('n6', 1000, { visibility: 'workspace' }),
    note('n7', 1200, { visibility: 'workspace' }),
  ];
}

/** `eng` holds Grace and, nested, `sre`, which holds Linus. */
export function seedGroups(): NotesGroup[] {
  return [
    {
      id: 'eng',
      members: [
        { type: 'user', email: 'Grace@Example.com' },
        { type: 'group', id: 'sre' },
      ],
    },
    { id: 'sre', members: [{ type: 'user', email: 'linus@example.com' }] },
  ];
}

export async function startNotesFake(options: { pageSize?: number } = {}): Promise<NotesFake> {
  const token = 'notes-token-5f2a9c';
  const pageSize = options.pageSize ?? 2;
  const notes = new Map(seedNotes().map((note) => [note.id, note]));
  const changes: Change[] = [];
  let groups = seedGroups();
  let role: 'admin' | 'member' = 'admin';

  const newestFirst = () => [...notes.values()].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  // The feed answers each note's latest change after `since`, oldest first, as change feeds do.
  const changesSince = (since: string) => {
    const latest = new Map<string, Change>();
    for (const change of changes) if (change.at > since) latest.set(change.id, change);
    return [...latest.values()]
      .sort((a, b) => a.at.localeCompare(b.at))
      .map((change) => (change.type === 'note.updated' ? { ...change, note: notes.get(change.id) } : change));
  };

  const server = await startFakeServer({ bearerToken: token });
  server.route('GET', '/api/me', () => ({
    json: { user: { id: 'u-ada', email: 'ada@example.com', role }, workspace: { name: 'Example Inc' } },
  }));
  server.route('GET', '/api/notes', cursorPages(newestFirst, { pageSize, itemsKey: 'notes' }));
  server.route('GET', '/api/changes', (request) => {
    const since = request.query.get('since');
    if (since === null) return { status: 400, json: { error: 'since is required' } };
    return numberedPages(() => changesSince(since), { pageSize, itemsKey: 'changes' })(request);
  });
  server.route(
    'GET',
    '/api/note-ids',
    linkPages(() => newestFirst().map((note) => note.id), { pageSize: 3 }),
  );
  server.route(
    'GET',
    '/api/groups',
    cursorPages(() => groups, { pageSize: 1, itemsKey: 'groups' }),
  );
  // Unknown ids are left out of the answer, as deleted notes are.
  server.route('GET', '/api/notes/permissions', (request) => {
    const ids = (request.query.get('ids') ?? '').split(',').filter((id) => id !== '');
    if (ids.length === 0 || ids.length > PERMISSIONS_MAX_IDS)
      return { status: 400, json: { error: `ids: 1 to ${PERMISSIONS_MAX_IDS} note ids` } };
    const permissions = ids.flatMap((id) => {
      const note = notes.get(id);
      return note
        ? [{ id, author: note.author, visibility: note.visibility, shared_with: note.shared_with }]
        : [];
    });
    return { json: { permissions } };
  });

  return {
    server,
    token,
    upsert(partial) {
      const now = new Date().toISOString();
      const existing = notes.get(partial.id);
      const note: Note = {
        title: `Note ${partial.id}`,
        body: '',
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
        folder_id: null,
        tags: [],
        created_at: now,
        visibility: 'workspace',
        ...existing,
        ...partial,
        updated_at: now,
      };
      notes.set(note.id, note);
      changes.push({ type: 'note.updated', id: note.id, at: now });
      return note;
    },
    remove(id) {
      notes.delete(id);
      changes.push({ type: 'note.deleted', id, at: new Date().toISOString() });
    },
    setSharing(id, sharing) {
      const note = notes.get(id);
      if (!note) throw new Error(`no note ${id}`);
      notes.set(id, { ...note, visibility: sharing.visibility, shared_with: sharing.shared_with });
    },
    setGroups(next) {
      groups = next;
    },
    setRole(next) {
      role = next;
    },
    close: () => server.close(),
  };
}
