// Upgrading a store indexed when Google groups were named per connection ('group:gdrive:<connection id>:<email>')
// to the org-wide 'group:google:<email>': migrated with the migrations before it, filled as that version left
// stores, then migrated to the end. Drive's documents keep their readers, the directory's members of a group now
// read what is shared with it too, and a group another app named is left as it was. On PGlite, and on the
// PostgreSQL server when TEST_DATABASE_URL is set.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { and, asc, eq } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionStatus } from '../../common/connection-status';
import { principalsFor } from '../search/acl';
import { createTestDatabase, testDatabaseUrl } from '../testing/database';
import * as schema from './schema';
import { aclGroupMembers, appConnections, documentChunks, documents, orgs } from './schema';
import { migrationsFolder, type Db } from './store';

const UPGRADE = '0015_google_groups_org_wide';

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A migrations folder holding only the migrations before the upgrade. */
function migrationsBefore(): string {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const upgrade = journal.entries.findIndex((entry) => entry.tag === UPGRADE);
  expect(upgrade).toBeGreaterThan(0);
  const folder = mkdtempSync(path.join(tmpdir(), 'scout-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const before = journal.entries.slice(0, upgrade);
  for (const entry of before)
    copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: before }));
  return folder;
}

interface Database {
  db: Db;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function pglite(): Promise<Database> {
  const client = new PGlite();
  const db = drizzlePglite({ client, schema });
  return {
    db,
    migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

async function server(): Promise<Database> {
  const database = await createTestDatabase('google_groups');
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const db = drizzleNodePg({ client: pool, schema });
  return {
    db: db as unknown as Db,
    migrate: (folder) => migrateNodePg(db, { migrationsFolder: folder }),
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const stores: [string, () => Promise<Database>][] = [
  ['PGlite', pglite],
  ...(testDatabaseUrl ? [['PostgreSQL', server] as [string, () => Promise<Database>]] : []),
];

describe.each(stores)('the upgrade to org-wide Google groups on %s', (_name, open) => {
  // A new cluster migrated from nothing: initdb and every migration, on a shared machine.
  it(
    'renames the Google groups of Drive and the directory, in ACLs and memberships, and nothing else',
    { timeout: 180_000 },
    async () => {
      const database = await open();
      try {
        const { db } = database;
        const before = migrationsBefore();
        folders.push(before);
        await database.migrate(before);

        const [org] = await db.insert(orgs).values({ domain: 'acme.test' }).returning();
        // Synced connections: a member's groups count only from a live connection (principalsFor).
        const connection = async (appName: string) =>
          (
            await db
              .insert(appConnections)
              .values({ orgId: org!.id, appName, isOrg: true, statusCode: ConnectionStatus.IndexingComplete })
              .returning()
          )[0]!.id;
        const driveId = await connection('gdrive');
        const directoryId = await connection('gworkspace-directory');
        const feedId = await connection('custom-api');
        const indexed = async (source: string, connectionId: string, externalId: string, acl: string[]) => {
          const [row] = await db
            .insert(documents)
            .values({ orgId: org!.id, source, connectionId, externalId, title: externalId, acl })
            .returning();
          await db.insert(documentChunks).values({
            orgId: org!.id,
            documentId: row!.id,
            ord: 0,
            body: `${externalId} body`,
            source,
            acl,
          });
        };
        await indexed('gdrive', driveId, 'plan', [
          `group:gdrive:${driveId}:design@acme.test`,
          'user:admin@acme.test',
        ]);
        // A feed's own group that happens to look like Drive's: its feed, not Google, says who is in it.
        const feedGroup = `group:gdrive:${feedId}:design@acme.test`;
        await indexed('custom-api', feedId, 'feed', [feedGroup]);
        await db.insert(aclGroupMembers).values([
          {
            orgId: org!.id,
            connectionId: driveId,
            groupKey: `group:gdrive:${driveId}:design@acme.test`,
            memberEmail: 'grace@acme.test',
          },
          // The directory listed the same group, under its own name.
          ...['eve@acme.test', 'grace@acme.test'].map((memberEmail) => ({
            orgId: org!.id,
            connectionId: directoryId,
            groupKey: `group:gworkspace-directory:${directoryId}:design@acme.test`,
            memberEmail,
          })),
          { orgId: org!.id, connectionId: feedId, groupKey: feedGroup, memberEmail: 'mallory@acme.test' },
        ]);

        await database.migrate(migrationsFolder);

        const aclOf = async (externalId: string) => {
          const [row] = await db
            .select({ acl: documents.acl, chunkAcl: documentChunks.acl })
            .from(documents)
            .innerJoin(documentChunks, eq(documentChunks.documentId, documents.id))
            .where(and(eq(documents.orgId, org!.id), eq(documents.externalId, externalId)));
          return row;
        };
        const google = 'group:google:design@acme.test';
        expect(await aclOf('plan')).toEqual({
          acl: [google, 'user:admin@acme.test'],
          chunkAcl: [google, 'user:admin@acme.test'],
        });
        expect(await aclOf('feed')).toEqual({ acl: [feedGroup], chunkAcl: [feedGroup] });
        const memberships = await db
          .select({
            connectionId: aclGroupMembers.connectionId,
            groupKey: aclGroupMembers.groupKey,
            memberEmail: aclGroupMembers.memberEmail,
          })
          .from(aclGroupMembers)
          .orderBy(asc(aclGroupMembers.groupKey), asc(aclGroupMembers.memberEmail));
        expect(memberships).toEqual(
          expect.arrayContaining([
            { connectionId: driveId, groupKey: google, memberEmail: 'grace@acme.test' },
            { connectionId: directoryId, groupKey: google, memberEmail: 'eve@acme.test' },
            { connectionId: directoryId, groupKey: google, memberEmail: 'grace@acme.test' },
            { connectionId: feedId, groupKey: feedGroup, memberEmail: 'mallory@acme.test' },
          ]),
        );
        expect(memberships).toHaveLength(4);

        // The plan reaches the group's members as either Google connection listed them; the feed's member, the feed only.
        const reads = async (email: string) => {
          const principals = await principalsFor(db, org!.id, email);
          return (
            await db
              .select({ externalId: documents.externalId, acl: documents.acl })
              .from(documents)
              .where(eq(documents.orgId, org!.id))
          )
            .filter((row) => row.acl.some((principal) => principals.includes(principal)))
            .map((row) => row.externalId)
            .sort();
        };
        expect(await reads('grace@acme.test')).toEqual(['plan']);
        expect(await reads('eve@acme.test')).toEqual(['plan']);
        expect(await reads('mallory@acme.test')).toEqual(['feed']);
      } finally {
        await database.close();
      }
    },
  );
});
