import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConnectorContext } from '../context';
import { defineConnector } from '../define-connector';
import { PermissionMismatchError } from '../errors';
import { collect, runConnectorConformance, type ConformanceOptions } from '../testing';
import type { SyncBatch } from '../types';
import { startNotesFake, type NotesFake } from './fake';
import { notesConnector } from './index';

let notes: NotesFake;

beforeEach(async () => {
  notes = await startNotesFake();
});

afterEach(async () => {
  await notes.close();
});

function conformance(): ConformanceOptions {
  return {
    fakeServer: notes.server,
    credentials: { api_key: notes.token },
    config: { baseUrl: notes.server.url },
    changeSource: () => {
      notes.upsert({ id: 'n2', title: 'Renamed' });
      notes.upsert({ id: 'n9', title: 'New note' });
      notes.remove('n3');
      return { changed: ['n2', 'n9'], deleted: ['n3'] };
    },
  };
}

function context() {
  return createConnectorContext(notesConnector, {
    credentials: { api_key: notes.token },
    config: { baseUrl: notes.server.url },
  });
}

describe('example notes connector', () => {
  it('passes the conformance kit', async () => {
    const report = await runConnectorConformance(notesConnector, conformance());
    expect(report).toEqual({
      fullSync: { batches: 4, documents: 6 },
      resumedMidSync: true,
      incremental: { documents: 2, deleted: 1 },
      listedIds: 7,
      groups: 2,
    });
  });

  it('maps sharing to ACLs, failing closed where the source cannot say', async () => {
    const documents = (await collect(notesConnector.fullSync(context()))).flatMap((batch) => batch.documents);
    const acl = Object.fromEntries(documents.map((document) => [document.externalId, document.acl]));
    expect(acl).toEqual({
      n1: ['org'],
      n2: ['user:ada@example.com', 'user:grace@example.com', 'group:guru:eng'],
      n3: ['public'],
      n4: null,
      n5: ['user:ada@example.com'],
      n6: ['org'],
    });
  });

  it('walks newest first, stops at the three-year window and reports how far back it reached', async () => {
    const ctx = context();
    const batches = await collect(notesConnector.fullSync(ctx));
    const reached = batches.map((batch) => batch.progress?.syncedFrom?.getTime() ?? 0);
    expect(reached).toEqual([...reached].sort((a, b) => b - a));
    expect(batches.at(-1)?.progress?.syncedFrom).toEqual(ctx.syncWindowStart);
    expect(batches.flatMap((batch) => batch.documents.map((document) => document.externalId))).not.toContain(
      'n7',
    );
  });

  it('tells a member’s key from an admin’s at validate', async () => {
    notes.setRole('member');
    await expect(notesConnector.validate(context())).rejects.toBeInstanceOf(PermissionMismatchError);
    notes.setRole('admin');
    await expect(notesConnector.validate(context())).resolves.toEqual({
      workspaceName: 'Example Inc',
      appUserId: 'u-ada',
      email: 'ada@example.com',
    });
  });

  it('answers documents’ current readers by id, without their content, leaving out ids the source lacks', async () => {
    notes.setSharing('n1', { visibility: 'restricted', shared_with: { users: [], groups: ['sre'] } });
    notes.setSharing('n3', {});
    notes.server.clearLog();
    const answers = await notesConnector.documentAcls!(context(), ['n1', 'n3', 'n6', 'gone']);
    expect(answers).toEqual([
      { externalId: 'n1', acl: ['user:ada@example.com', 'group:guru:sre'] },
      { externalId: 'n3', acl: null },
      { externalId: 'n6', acl: ['org'] },
    ]);
    expect(notes.server.requests.map((request) => request.path)).toEqual(['/api/notes/permissions']);
  });

  it('starts over when handed a cursor it cannot read', async () => {
    const batches = await collect(notesConnector.incrementalSync(context(), { from: 'another version' }));
    expect(batches.flatMap((batch) => batch.documents)).toHaveLength(6);
  });
});

describe('the conformance kit', () => {
  it('catches a listIds that misses documents (pruning would delete them)', async () => {
    const broken = defineConnector({
      ...notesConnector,
      async *listIds() {
        yield ['n1'];
      },
    });
    await expect(runConnectorConformance(broken, conformance())).rejects.toThrow(/listIds: lists everything/);
  });

  it('catches an incremental sync that ignores its cursor', async () => {
    const broken = defineConnector({ ...notesConnector, incrementalSync: notesConnector.fullSync });
    await expect(runConnectorConformance(broken, conformance())).rejects.toThrow(
      /every cursor is a checkpoint|exactly the changed/,
    );
  });

  it('catches cursors that do not survive JSON', async () => {
    const broken = defineConnector({
      ...notesConnector,
      async *fullSync(ctx) {
        for await (const batch of notesConnector.fullSync(ctx))
          yield { ...batch, cursor: { at: new Date() } } as unknown as SyncBatch;
      },
    });
    await expect(runConnectorConformance(broken, conformance())).rejects.toThrow(/valid SyncBatch/);
  });
});
