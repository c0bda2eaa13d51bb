import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, getTableName, inArray, is, sql } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from './ids';
import * as schema from './schema';
import { loadSecretKey } from './secrets';
import { migrationsFolder, openStore } from './store';
import type { Db, DbOrTx, Store, Tx } from './store';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../testing/database';

// ---------------------------------------------------------------------------------------------
// The tables of the schema, found by walking its exports so a new table cannot be forgotten here
// ---------------------------------------------------------------------------------------------

type SchemaExports = typeof schema;
type TableKey = {
  [K in keyof SchemaExports]: SchemaExports[K] extends PgTable ? K : never;
}[keyof SchemaExports];
type Insert<K extends TableKey> = SchemaExports[K]['$inferInsert'];

const tables = (Object.entries(schema) as [string, unknown][])
  .filter((entry): entry is [TableKey, PgTable] => is(entry[1], PgTable))
  .map(([key, table]) => ({ key, table, config: getTableConfig(table) }));

/** Tables with no org at all: sign-in codes are requested before the org is known. */
const GLOBAL_TABLES: readonly TableKey[] = ['loginCodes'];
/** Tables whose org_id may be null: system jobs and system-wide schedules. */
const NULLABLE_ORG_TABLES: readonly TableKey[] = ['jobs', 'jobCursors'];
const orgOwned = tables.filter(({ key }) => key !== 'orgs' && !GLOBAL_TABLES.includes(key));

/** Parents before children (self references ignored), so fixtures can be inserted in order. */
function insertionOrder(): typeof tables {
  const byTable = new Map(tables.map((entry) => [entry.table, entry]));
  const done = new Set<PgTable>();
  const ordered: typeof tables = [];
  const visit = (entry: (typeof tables)[number], trail: Set<PgTable>) => {
    if (done.has(entry.table)) return;
    if (trail.has(entry.table)) throw new Error(`foreign-key cycle through ${entry.config.name}`);
    trail.add(entry.table);
    for (const fk of entry.config.foreignKeys) {
      const parent = byTable.get(fk.reference().foreignTable);
      if (parent && parent.table !== entry.table) visit(parent, trail);
    }
    trail.delete(entry.table);
    done.add(entry.table);
    ordered.push(entry);
  };
  for (const entry of tables) visit(entry, new Set());
  return ordered;
}

// ---------------------------------------------------------------------------------------------
// One valid row per table, for one org. `patch` is applied by the update test.
// ---------------------------------------------------------------------------------------------

interface Ctx {
  label: string;
  ids: Record<TableKey, string>;
}

type Fixtures = {
  [K in TableKey]: { row: (c: Ctx) => Insert<K>; patch: Partial<Insert<K>> };
};

const day = 86_400_000;

const fixtures: Fixtures = {
  orgs: {
    row: (c) => ({
      id: c.ids.orgs,
      domain: `${c.label}.example.com`,
      name: c.label,
      flags: { answers: true },
    }),
    patch: { name: 'Renamed', chatRetentionDays: 30, homepageLinks: [{ title: 'Wiki', link: 'https://w' }] },
  },
  orgAllowedDomains: {
    row: (c) => ({ orgId: c.ids.orgs, domain: `${c.label}.example.org`, verificationCode: 'abc' }),
    patch: { status: 'VERIFIED', allowAllSignups: true },
  },
  subscriptions: {
    row: (c) => ({
      orgId: c.ids.orgs,
      planType: 'TEAM',
      status: 'TRIAL',
      trialEndAt: new Date(Date.now() + day),
    }),
    patch: { planType: 'ENTERPRISE', status: 'ACTIVE', seatCount: 50 },
  },
  users: {
    row: (c) => ({
      id: c.ids.users,
      orgId: c.ids.orgs,
      email: `ada@${c.label}.example.com`,
      admin: true,
      status: 'SIGNED_UP',
      onboardingState: { step: 1, first_admin: true },
    }),
    patch: { displayName: 'Ada L', reconnectedApps: { slack: 1 }, workRole: 'engineering' },
  },
  loginCodes: {
    row: (c) => ({
      email: `ada@${c.label}.example.com`,
      codeHash: 'h',
      expiresAt: new Date(Date.now() + 600_000),
    }),
    patch: { usedAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  refreshTokens: {
    row: (c) => ({
      orgId: c.ids.orgs,
      userId: c.ids.users,
      tokenHash: `rt-${c.label}`,
      familyId: newId(),
      expiresAt: new Date(Date.now() + 30 * day),
    }),
    patch: { rotatedAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  apiKeys: {
    row: (c) => ({
      orgId: c.ids.orgs,
      name: 'ci',
      keyHash: `kh-${c.label}`,
      prefix: 'sk_abc',
      createdBy: c.ids.users,
    }),
    patch: { revokedAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  ssoConfigs: {
    row: (c) => ({ orgId: c.ids.orgs, issuer: 'https://idp.example.com', clientId: 'client' }),
    patch: { enforced: true, clientSecretEncrypted: 'v1.xyz' },
  },
  appConnections: {
    row: (c) => ({
      id: c.ids.appConnections,
      orgId: c.ids.orgs,
      userId: c.ids.users,
      appName: 'slack',
      isOrg: true,
      credentialsEncrypted: 'v1.abc',
    }),
    patch: {
      statusCode: 3,
      cursor: { ts: '1700000000.000100' },
      syncedFrom: new Date('2022-01-01T00:00:00.000Z'),
    },
  },
  documents: {
    row: (c) => ({
      id: c.ids.documents,
      orgId: c.ids.orgs,
      connectionId: c.ids.appConnections,
      source: 'slack',
      externalId: 'C1/1700000000.000100',
      title: 'Launch thread',
      body: 'The quick brown fox jumps over the lazy dog',
      acl: ['group:slack:C1', `user:ada@${c.label}.example.com`],
    }),
    patch: { version: 2, acl: ['org'] },
  },
  documentChunks: {
    row: (c) => ({
      orgId: c.ids.orgs,
      documentId: c.ids.documents,
      ord: 0,
      title: 'Launch thread',
      body: 'Launch thread. The quick brown fox jumps over the lazy dog',
      source: 'slack',
      objectType: 'messages',
      acl: ['group:slack:C1'],
      searchLength: 9,
    }),
    patch: { acl: ['org', 'public'], tokenCount: 12 },
  },
  searchTermStats: {
    row: (c) => ({ orgId: c.ids.orgs, lexeme: 'fox', docFreq: 1 }),
    patch: { docFreq: 2 },
  },
  searchStats: {
    row: (c) => ({ orgId: c.ids.orgs, chunkCount: 1, totalLength: 9 }),
    patch: { chunkCount: 2, totalLength: 20 },
  },
  appOauthStates: {
    row: (c) => ({
      orgId: c.ids.orgs,
      userId: c.ids.users,
      appName: 'asana',
      stateHash: `sh-${c.label}`,
      verifierEncrypted: 'v1.abc',
      isOrg: true,
      connectionId: c.ids.appConnections,
      expiresAt: new Date('2025-01-02T03:14:05.000Z'),
    }),
    patch: { options: { subdomain: 'acme' } },
  },
  aclGroupMembers: {
    row: (c) => ({
      orgId: c.ids.orgs,
      connectionId: c.ids.appConnections,
      groupKey: 'group:slack:C1',
      memberEmail: `ada@${c.label}.example.com`,
    }),
    patch: { groupKey: 'group:slack:C2' },
  },
  bots: {
    row: (c) => ({ id: c.ids.bots, orgId: c.ids.orgs, botName: 'Helper', authorId: c.ids.users }),
    patch: { isManaged: true, sources: { skills: [{ app_name: 'slack', search_all: true, filters: [] }] } },
  },
  botAdmins: {
    row: (c) => ({ orgId: c.ids.orgs, botId: c.ids.bots, email: `ada@${c.label}.example.com` }),
    patch: { createdAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  topics: {
    row: (c) => ({ id: c.ids.topics, orgId: c.ids.orgs, topicTitle: 'Q3 plan', authorId: c.ids.users }),
    patch: { archived: true, visibility: 'ORG', isMultiplayer: true },
  },
  topicMembers: {
    row: (c) => ({ orgId: c.ids.orgs, topicId: c.ids.topics, userId: c.ids.users, role: 'CREATOR' }),
    patch: { lastReadAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  messages: {
    row: (c) => ({
      id: c.ids.messages,
      orgId: c.ids.orgs,
      topicId: c.ids.topics,
      sender: 'USER',
      authorId: c.ids.users,
      messageText: 'What is the plan?',
    }),
    patch: { status: 'SUCCESS', references: [{ id: 'r1', title: 'Doc' }], progressBar: 100 },
  },
  uploads: {
    row: (c) => ({
      id: c.ids.uploads,
      orgId: c.ids.orgs,
      fileName: 'plan.pdf',
      mimeType: 'application/pdf',
      sizeBytes: 1234,
      creatorId: c.ids.users,
      conversationId: c.ids.topics,
    }),
    patch: { totalChunks: 3, documentId: null },
  },
  messageFiles: {
    row: (c) => ({ orgId: c.ids.orgs, messageId: c.ids.messages, uploadId: c.ids.uploads }),
    patch: {},
  },
  uploadBlobs: {
    row: (c) => ({ orgId: c.ids.orgs, uploadId: c.ids.uploads, seq: 0, data: new Uint8Array([1, 2, 3]) }),
    patch: { seq: 1 },
  },
  botFeedbacks: {
    row: (c) => ({ orgId: c.ids.orgs, botId: c.ids.bots, messageId: c.ids.messages, feedback: 'too long' }),
    patch: { processedFeedback: 'Be concise.' },
  },
  prompts: {
    row: (c) => ({
      orgId: c.ids.orgs,
      title: 'Summarise',
      template: 'Summarise {{doc}}',
      authorId: c.ids.users,
    }),
    patch: { useCount: 5, isRecommended: true },
  },
  verifiedAnswers: {
    row: (c) => ({ orgId: c.ids.orgs, title: 'VPN', content: 'Use WireGuard.', creatorId: c.ids.users }),
    patch: { views: 7 },
  },
  notifications: {
    row: (c) => ({
      orgId: c.ids.orgs,
      userId: c.ids.users,
      type: 'notify-tagged-users',
      data: { topic_id: c.ids.topics },
      actors: [{ name: 'Bo' }],
    }),
    patch: { readAt: new Date('2025-01-02T03:04:05.000Z') },
  },
  notificationPreferences: {
    row: (c) => ({ orgId: c.ids.orgs, userId: c.ids.users, prefs: { in_app_tagged_users: 'True' } }),
    patch: { desktopPushDisabled: true, prefs: { email_research: 'False' } },
  },
  feedback: {
    row: (c) => ({
      orgId: c.ids.orgs,
      queryId: 'q1',
      responseId: c.ids.messages.replaceAll('-', ''),
      userId: c.ids.users,
      rating: 1,
    }),
    patch: { rating: -1, comment: 'wrong source', referencesFeedback: { r1: -1 } },
  },
  featureRequests: {
    row: (c) => ({ orgId: c.ids.orgs, userId: c.ids.users, text: 'Dark mode, please' }),
    patch: { text: 'A dark mode for the sidebar' },
  },
  pins: {
    row: (c) => ({ orgId: c.ids.orgs, objectId: c.ids.documents, q: 'vpn', pinnedBy: c.ids.users }),
    patch: { q: 'wireguard' },
  },
  searchHistory: {
    row: (c) => ({ orgId: c.ids.orgs, userId: c.ids.users, q: 'vpn' }),
    patch: { q: 'vpn setup' },
  },
  recentVisits: {
    row: (c) => ({ orgId: c.ids.orgs, userId: c.ids.users, docSource: 'gdrive' }),
    patch: { docSource: 'notion' },
  },
  jobs: {
    row: (c) => ({ orgId: c.ids.orgs, kind: 'sync', payload: { connectionId: c.ids.appConnections } }),
    patch: { status: 'running', attempts: 1, lockedBy: 'worker-1' },
  },
  jobCursors: {
    row: (c) => ({ key: `retention:${c.label}`, orgId: c.ids.orgs, cursor: { after: null } }),
    patch: { lastRunAt: new Date('2025-01-02T03:04:05.000Z') },
  },
};

function newCtx(label: string): Ctx {
  const ids = Object.fromEntries(tables.map(({ key }) => [key, newId()])) as Record<TableKey, string>;
  return { label: `${label}-${ids.orgs.slice(-8)}`, ids };
}

// drizzle's per-table insert types are a union here; the fixtures above are checked per table
type AnyRow = Record<string, unknown>;
const fixtureFor = (key: TableKey) => fixtures[key] as unknown as { row: (c: Ctx) => AnyRow; patch: AnyRow };

/** Rows of `table` that belong to the fixture context (by org, or by the fixture's own values). */
function ownRows(table: PgTable, key: TableKey, c: Ctx) {
  const columns = getTableConfig(table).columns;
  const col = (name: string) => columns.find((column) => column.name === name);
  if (key === 'orgs') return eq(col('id')!, c.ids.orgs);
  if (key === 'loginCodes') return eq(col('email')!, `ada@${c.label}.example.com`);
  return eq(col('org_id')!, c.ids.orgs);
}

async function seedOrg(db: Db, label: string): Promise<Ctx> {
  const c = newCtx(label);
  for (const { key, table } of insertionOrder()) await db.insert(table).values(fixtureFor(key).row(c));
  return c;
}

async function countRows(db: Db, table: PgTable, key: TableKey, c: Ctx): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(ownRows(table, key, c));
  return rows[0]!.n;
}

// ---------------------------------------------------------------------------------------------
// Schema rules (no database needed)
// ---------------------------------------------------------------------------------------------

describe('schema', () => {
  it('has a fixture for every table', () => {
    expect(tables.length).toBeGreaterThan(30);
    for (const { key } of tables) expect(fixtures, `fixture for ${key}`).toHaveProperty(key);
  });

  it('gives every org-owned table an org_id that cascades from orgs and leads an index', () => {
    for (const { key, config } of orgOwned) {
      const orgCol = config.columns.find((column) => column.name === 'org_id');
      expect(orgCol, `${config.name}.org_id`).toBeDefined();
      expect(orgCol!.getSQLType(), `${config.name}.org_id type`).toBe('uuid');
      expect(orgCol!.notNull, `${config.name}.org_id not null`).toBe(!NULLABLE_ORG_TABLES.includes(key));

      const fk = config.foreignKeys.find((f) => f.reference().columns.some((column) => column === orgCol));
      expect(fk, `${config.name}.org_id references orgs`).toBeDefined();
      expect(getTableName(fk!.reference().foreignTable)).toBe('orgs');
      expect(fk!.onDelete, `${config.name}.org_id on delete`).toBe('cascade');

      // by name: constraint builders hold their own copies of the column objects
      const leading = [
        ...config.indexes.map((index) => index.config.columns[0]),
        ...config.primaryKeys.map((key) => key.columns[0]),
        ...config.uniqueConstraints.map((unique) => unique.columns[0]),
        ...(orgCol!.primary ? [orgCol] : []),
      ].map((column) => (column as { name?: string } | undefined)?.name);
      expect(leading.includes('org_id'), `${config.name} has an index starting with org_id`).toBe(true);
    }
  });

  it('keeps global tables free of org_id', () => {
    for (const key of GLOBAL_TABLES) {
      expect(getTableConfig(schema[key]).columns.map((column) => column.name)).not.toContain('org_id');
    }
  });

  it('uses timestamptz for every timestamp and uuid ids', () => {
    for (const { config } of tables) {
      for (const column of config.columns) {
        if (column.getSQLType().startsWith('timestamp')) {
          expect(column.getSQLType(), `${config.name}.${column.name}`).toBe('timestamp with time zone');
        }
        if (column.name === 'id') expect(column.getSQLType(), `${config.name}.id`).toBe('uuid');
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The store suite, run on embedded PGlite and (with TEST_DATABASE_URL) on a PostgreSQL server
// ---------------------------------------------------------------------------------------------

function storeSuite(kind: Store['kind'], open: () => Promise<Store>) {
  let store: Store;
  let db: Db;

  beforeAll(async () => {
    store = await open();
    db = store.db;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('opens the expected kind and answers ping', async () => {
    expect(store.kind).toBe(kind);
    await store.ping();
  });

  it('applies every migration once; migrating again is a no-op', async () => {
    const journal = JSON.parse(
      readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as {
      entries: unknown[];
    };
    const applied = async () =>
      (await db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)).rows[0]!.n;
    expect(await applied()).toBe(journal.entries.length);
    await store.migrate();
    await store.migrate();
    expect(await applied()).toBe(journal.entries.length);
  });

  it('has exactly the columns of the schema in the database (migrations are up to date)', async () => {
    const result = await db.execute(
      sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const actual = new Map<string, string[]>();
    for (const row of result.rows) {
      const name = String(row.table_name);
      actual.set(name, [...(actual.get(name) ?? []), String(row.column_name)]);
    }
    for (const { config } of tables) {
      expect(actual.get(config.name)?.sort(), config.name).toEqual(config.columns.map((c) => c.name).sort());
    }
  });

  it('reports extensions: both embedded, none on a plain PostgreSQL 15', async () => {
    if (kind === 'embedded') {
      expect(store.hasExtension('pg_textsearch')).toBe(true);
      expect(store.hasExtension('vector')).toBe(true);
    } else {
      const installed = await db.execute(sql`SELECT extname FROM pg_extension`);
      const names = installed.rows.map((row) => row.extname);
      expect(store.hasExtension('vector')).toBe(names.includes('vector'));
      expect(store.hasExtension('pg_textsearch')).toBe(names.includes('pg_textsearch'));
    }
  });

  it('inserts, reads and updates a row of every table', async () => {
    const c = newCtx('crud');
    for (const { key, table, config } of insertionOrder()) {
      const fixture = fixtureFor(key);
      const inserted = await db.insert(table).values(fixture.row(c)).returning();
      expect(inserted, config.name).toHaveLength(1);

      const read = await db
        .select()
        .from(table)
        .where(ownRows(table, key, c));
      expect(read, config.name).toHaveLength(1);
      expect(read[0], config.name).toEqual(inserted[0]);

      if (Object.keys(fixture.patch).length > 0) {
        await db
          .update(table)
          .set(fixture.patch)
          .where(ownRows(table, key, c));
        const updated = await db
          .select()
          .from(table)
          .where(ownRows(table, key, c));
        expect(updated[0], config.name).toMatchObject(fixture.patch);
      }
    }
    await db.delete(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
    await db.delete(schema.loginCodes).where(ownRows(schema.loginCodes, 'loginCodes', c));
  });

  it('isolates orgs: queries by org never see the other org, and deleting an org cascades only its rows', async () => {
    const a = await seedOrg(db, 'a');
    const b = await seedOrg(db, 'b');
    const before = new Map<TableKey, number>();

    for (const { key, table, config } of orgOwned) {
      const orgCol = config.columns.find((column) => column.name === 'org_id')!;
      const rowsA = await db.select({ orgId: orgCol }).from(table).where(eq(orgCol, a.ids.orgs));
      expect(rowsA.length, config.name).toBeGreaterThan(0);
      expect(new Set(rowsA.map((row) => row.orgId)), config.name).toEqual(new Set([a.ids.orgs]));
      before.set(key, await countRows(db, table, key, b));
      expect(before.get(key), config.name).toBeGreaterThan(0);
    }

    await db.delete(schema.orgs).where(eq(schema.orgs.id, a.ids.orgs));

    for (const { key, table, config } of orgOwned) {
      expect(await countRows(db, table, key, a), `${config.name} rows of deleted org`).toBe(0);
      expect(await countRows(db, table, key, b), `${config.name} rows of other org`).toBe(before.get(key));
    }
    expect(await countRows(db, schema.orgs, 'orgs', b)).toBe(1);
    // global rows are not the org's to delete
    expect(await countRows(db, schema.loginCodes, 'loginCodes', a)).toBe(1);
    await db.delete(schema.orgs).where(eq(schema.orgs.id, b.ids.orgs));
  });

  it('keeps one document per (org, source, connection, external id), also without a connection', async () => {
    const c = await seedOrg(db, 'docs');
    const upsert = (title: string) =>
      db
        .insert(schema.documents)
        .values({ orgId: c.ids.orgs, source: 'files', externalId: 'u1', title })
        .onConflictDoUpdate({
          target: [
            schema.documents.orgId,
            schema.documents.source,
            schema.documents.connectionId,
            schema.documents.externalId,
          ],
          set: { title, version: sql`${schema.documents.version} + 1` },
        })
        .returning();
    const first = await upsert('v1');
    const second = await upsert('v2');
    expect(second[0]!.id).toBe(first[0]!.id);
    expect(second[0]!.version).toBe(2);
    const rows = await db
      .select()
      .from(schema.documents)
      .where(and(eq(schema.documents.orgId, c.ids.orgs), eq(schema.documents.externalId, 'u1')));
    expect(rows).toHaveLength(1);
    await db.delete(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
  });

  it('derives the chunk tsvector from the body in English, and filters chunks by ACL principals', async () => {
    const c = await seedOrg(db, 'fts');
    const hits = await db
      .select({ id: schema.documentChunks.id, search: schema.documentChunks.search })
      .from(schema.documentChunks)
      .where(
        and(
          eq(schema.documentChunks.orgId, c.ids.orgs),
          sql`${schema.documentChunks.search} @@ to_tsquery('english', 'jumping & foxes')`,
          sql`${schema.documentChunks.acl} && ${sql.param(['group:slack:C1', 'org'])}::text[]`,
        ),
      );
    expect(hits).toHaveLength(1);
    expect(hits[0]!.search).toContain("'fox'");
    const denied = await db
      .select({ id: schema.documentChunks.id })
      .from(schema.documentChunks)
      .where(sql`${schema.documentChunks.acl} && ${sql.param(['user:someone@else'])}::text[]`);
    expect(denied).toHaveLength(0);
    await db.delete(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
  });

  it('numbers messages with an increasing row_id and keeps JSON and arrays intact', async () => {
    const c = await seedOrg(db, 'msgs');
    const [reply] = await db
      .insert(schema.messages)
      .values({
        orgId: c.ids.orgs,
        topicId: c.ids.topics,
        sender: 'ASSISTANT',
        replyToId: c.ids.messages,
        references: [{ id: 'r1', extra_fields: { icon_url: 'https://i' } }],
        skillRetrieved: [{ appName: 'slack', numDocs: 3 }],
      })
      .returning();
    const [question] = await db.select().from(schema.messages).where(eq(schema.messages.id, c.ids.messages));
    expect(typeof reply!.rowId).toBe('number');
    expect(reply!.rowId).toBeGreaterThan(question!.rowId);
    expect(reply!.messageEncoding).toBe('PLAIN_TEXT');
    expect(reply!.references).toEqual([{ id: 'r1', extra_fields: { icon_url: 'https://i' } }]);
    expect(reply!.createdAt).toBeInstanceOf(Date);
    await db.delete(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
  });

  it('numbers messages per org, so one org’s row_id says nothing of another’s volume, also when inserted at once', async () => {
    const first = await seedOrg(db, 'rowa');
    const second = await seedOrg(db, 'rowb');
    const insert = (c: Ctx) =>
      db
        .insert(schema.messages)
        .values({ orgId: c.ids.orgs, topicId: c.ids.topics, sender: 'USER' })
        .returning({ rowId: schema.messages.rowId });
    const rowIds = async (c: Ctx) =>
      (
        await db
          .select({ rowId: schema.messages.rowId })
          .from(schema.messages)
          .where(eq(schema.messages.orgId, c.ids.orgs))
          .orderBy(schema.messages.rowId)
      ).map((row) => row.rowId);
    // the fixture's message is each org's first
    expect(await rowIds(first)).toEqual([1]);
    for (let i = 0; i < 5; i++) await insert(first);
    expect(await rowIds(first)).toEqual([1, 2, 3, 4, 5, 6]);
    // another org's traffic moved nothing here: its next message is its second
    expect((await insert(second))[0]!.rowId).toBe(2);
    // concurrent writers of one org never collide and leave no gap
    await Promise.all(
      Array.from({ length: 8 }, () =>
        db.transaction(async (tx) => {
          await tx
            .insert(schema.messages)
            .values({ orgId: first.ids.orgs, topicId: first.ids.topics, sender: 'USER' });
        }),
      ),
    );
    expect(await rowIds(first)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    await db.delete(schema.orgs).where(inArray(schema.orgs.id, [first.ids.orgs, second.ids.orgs]));
  });

  it('commits and rolls back transactions', async () => {
    const c = newCtx('tx');
    // code shared between transactional and plain callers takes DbOrTx
    const insertOrg = (q: DbOrTx) => q.insert(schema.orgs).values(fixtures.orgs.row(c));
    await expect(
      db.transaction(async (tx: Tx) => {
        await insertOrg(tx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await countRows(db, schema.orgs, 'orgs', c)).toBe(0);
    await db.transaction(async (tx) => {
      await insertOrg(tx);
    });
    expect(await countRows(db, schema.orgs, 'orgs', c)).toBe(1);
    await db.delete(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
  });

  // last: the store is closed from here on (afterAll closes it once more)
  it('closes idempotently', async () => {
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });
}

describe('store: embedded PGlite (memory)', () => {
  storeSuite('embedded', () => openStore({ memory: true }));
});

describe.skipIf(!testDatabaseUrl)('store: PostgreSQL server (TEST_DATABASE_URL)', () => {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('store');
  });
  // hooks run as a stack: the suite's store is closed before this drops the database
  afterAll(() => database?.drop());

  storeSuite('server', () => openStore({ databaseUrl: database!.url }));
});

function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, entry) =>
      sum +
      (entry.isDirectory()
        ? directoryBytes(path.join(dir, entry.name))
        : statSync(path.join(dir, entry.name)).size),
    0,
  );
}

describe('store: embedded PGlite on disk', () => {
  it('persists across close and reopen of the same data directory', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scout-store-'));
    try {
      const c = newCtx('persist');
      const first = await openStore({ dataDir, databaseUrl: null });
      expect(first.kind).toBe('embedded');
      await first.db.insert(schema.orgs).values(fixtures.orgs.row(c));
      await first.close();
      await first.close();

      const second = await openStore({ dataDir, databaseUrl: null });
      try {
        const rows = await second.db.select().from(schema.orgs).where(eq(schema.orgs.id, c.ids.orgs));
        expect(rows.map((row) => row.domain)).toEqual([`${c.label}.example.com`]);
        expect(second.hasExtension('pg_textsearch')).toBe(true);
        // a second opener of the same directory would silently lose writes: it must be refused
        await expect(openStore({ dataDir, databaseUrl: null })).rejects.toThrow(/in use by process/);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it(
    'keeps DATA_DIR private: no file or directory under it readable by group or others',
    { timeout: 120_000 },
    async () => {
      const parent = mkdtempSync(path.join(os.tmpdir(), 'scout-store-modes-'));
      const dataDir = path.join(parent, 'data');
      try {
        const store = await openStore({ dataDir, databaseUrl: null });
        // files the process writes under DATA_DIR later (the generated secret key) are private too
        loadSecretKey(dataDir);
        const exposed = () =>
          [
            dataDir,
            ...readdirSync(dataDir, { recursive: true }).map((entry) => path.join(dataDir, String(entry))),
          ]
            .filter((file) => (lstatSync(file).mode & 0o077) !== 0)
            .map((file) => path.relative(parent, file));
        try {
          expect(exposed()).toEqual([]);
        } finally {
          await store.close();
        }
        expect(exposed()).toEqual([]);
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );

  it('keeps the write-ahead log small under bulk writes', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scout-store-wal-'));
    const store = await openStore({ dataDir, databaseUrl: null, walCheckIntervalMs: 50 });
    try {
      await store.db.execute(sql`CREATE TABLE wal_probe (x text)`);
      // ~100 MB of WAL; single-user PostgreSQL alone would keep all of it
      for (let i = 0; i < 16; i++) {
        await store.db.execute(
          sql`INSERT INTO wal_probe SELECT repeat(md5(g::text), 20) FROM generate_series(1, 10000) g`,
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(directoryBytes(path.join(dataDir, 'pglite', 'pg_wal'))).toBeLessThanOrEqual(64 * 1024 * 1024);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
