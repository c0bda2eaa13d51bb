// The SDK's example connector and its fake notes API: the source half of `bench:ingest` and the connector rows'
// reference row.
import { notesConnector } from '../../connectors/sdk/example';
import { seedNotes, startNotesFake, type Note, type NotesFake } from '../../connectors/sdk/example/fake';
import { seededRandom } from '../../server/testing/random';
import { changedText, textPieces, type ConnectorBenchRow } from '../connector-bench';

/** The example connector asks for 50 notes a page; the fake answers that many. */
export const NOTES_PAGE = 50;

/**
 * Notes of real text: pieces of 200 to 6,000 characters (log-uniform, so most are short, as notes and pages are),
 * a fifth of them restricted to their author and a colleague.
 */
export function* sourceNotes(total: number): Generator<Partial<Note> & Pick<Note, 'id'>> {
  const random = seededRandom(7);
  let n = 0;
  for (const { title, body } of textPieces(total, { min: 200, max: 6_000 })) {
    const restricted = random() < 0.2;
    yield {
      id: `note-${n}`,
      title,
      body,
      visibility: restricted ? 'restricted' : 'workspace',
      ...(restricted
        ? { shared_with: { users: [`user${Math.floor(random() * 1000)}@bench-source.test`], groups: [] } }
        : {}),
    };
    n += 1;
  }
}

export const notesRow: ConnectorBenchRow<NotesFake, { api_key: string }, { baseUrl: string }> = {
  connector: notesConnector,
  isOrg: true,
  async startWorkspace(items) {
    const fake = await startNotesFake({ pageSize: NOTES_PAGE });
    for (const note of seedNotes()) fake.remove(note.id);
    for (const note of sourceNotes(items)) fake.upsert(note);
    return { fake, config: { baseUrl: fake.server.url }, credentials: { api_key: fake.token } };
  },
  change(fake, changes) {
    for (let n = 0; n < changes; n++) fake.upsert({ id: `note-${n}`, body: changedText(n) });
  },
  requests: (fake) => fake.server.requests.length,
  close: (fake) => fake.close(),
};
