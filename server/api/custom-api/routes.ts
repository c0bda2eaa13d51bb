import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  customApiDeleteRequestSchema,
  customApiDeleteResponseSchema,
  customApiGroupsRequestSchema,
  customApiGroupsResponseSchema,
  customApiParamsSchema,
  customApiUpsertRequestSchema,
  customApiUpsertResponseSchema,
  type CustomApiAcl,
} from '../../../common/api/custom-api';
import { ConnectionStatus } from '../../../common/connection-status';
import { Feature } from '../../../common/plans';
import { apiKeyCallerOf } from '../../auth/api-keys';
import { appConnections, documents, users, type AppConnection } from '../../db/schema';
import type { Db, Tx } from '../../db/store';
import { notFound } from '../../errors';
import {
  deleteDocuments,
  groupPrincipal,
  ORG_PRINCIPAL,
  upsertDocuments,
  userPrincipal,
  type IndexDocument,
} from '../../search';
import { documentAcl } from '../../sync/engine';
import { replaceConnectionGroups, type GroupMember } from '../../sync/groups';

const SOURCE = 'custom-api';
const NO_CONNECTION_MESSAGE = 'No such custom API connection.';

/** Group ids are the pusher's own; the connection id keeps two connections' groups apart. */
function customApiGroup(connectionId: string, id: string): string {
  return groupPrincipal(SOURCE, `${connectionId}:${id.trim()}`);
}

function principalsOf(connectionId: string, acl: CustomApiAcl): string[] {
  return [
    ...(acl.org ? [ORG_PRINCIPAL] : []),
    ...acl.users.map(userPrincipal),
    ...acl.groups.map((id) => customApiGroup(connectionId, id)),
  ];
}

async function storedTimes(tx: Tx, orgId: string, connectionId: string, externalIds: string[]) {
  const rows = await tx
    .select({
      externalId: documents.externalId,
      title: documents.title,
      body: documents.body,
      createdTime: documents.createdTime,
      modifiedTime: documents.modifiedTime,
    })
    .from(documents)
    .where(
      and(
        eq(documents.orgId, orgId),
        eq(documents.source, SOURCE),
        eq(documents.connectionId, connectionId),
        inArray(documents.externalId, externalIds),
      ),
    );
  return new Map(rows.map((row) => [row.externalId, row]));
}

/**
 * Runs `write` with the caller's custom-api connection locked, so a push and a disconnect never interleave: the
 * disconnect job's removal of the documents either sees everything a push wrote or the push finds the connection
 * gone. Another org's connection is as absent as a missing one.
 */
async function withConnection<T>(
  db: Db,
  orgId: string,
  connectionId: string,
  write: (tx: Tx, connection: AppConnection, ownerEmail: string | null) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ connection: appConnections, ownerEmail: users.email })
      .from(appConnections)
      .leftJoin(users, eq(users.id, appConnections.userId))
      .where(
        and(
          eq(appConnections.id, connectionId),
          eq(appConnections.orgId, orgId),
          eq(appConnections.appName, SOURCE),
        ),
      )
      .for('update', { of: appConnections });
    if (!row || row.connection.statusCode === ConnectionStatus.Disconnecting)
      throw notFound(NO_CONNECTION_MESSAGE);
    return write(tx, row.connection, row.ownerEmail);
  });
}

/** The push API of custom-api connections (docs/custom-api.md), authenticated by an org API key. */
export const customApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.ctx.store.db;
  const config = { access: 'apiKey', feature: Feature.apiAccess } as const;

  app.post(
    '/custom-api/:connectionId/documents',
    {
      config,
      schema: {
        params: customApiParamsSchema,
        body: customApiUpsertRequestSchema,
        response: { 200: customApiUpsertResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = apiKeyCallerOf(request);
      const { connectionId } = request.params;
      return withConnection(db(), orgId, connectionId, async (tx, connection, ownerEmail) => {
        const now = new Date();
        const stored = await storedTimes(
          tx,
          orgId,
          connectionId,
          request.body.documents.map((doc) => doc.id),
        );
        const upserts: IndexDocument[] = [];
        const refused: IndexDocument['externalId'][] = [];
        for (const doc of request.body.documents) {
          const acl = documentAcl(principalsOf(connectionId, doc.acl), connection, ownerEmail);
          if (acl === null) {
            refused.push(doc.id);
            continue;
          }
          // Without times, a push of unchanged content keeps the stored ones, so pushing it again changes nothing.
          const previous = stored.get(doc.id);
          const same = previous?.title === doc.title && previous.body === doc.body;
          const modifiedTime = doc.modified_at
            ? new Date(doc.modified_at)
            : ((same ? previous.modifiedTime : null) ?? now);
          upserts.push({
            source: SOURCE,
            connectionId,
            externalId: doc.id,
            title: doc.title,
            body: doc.body,
            url: doc.url,
            author: doc.author?.name ?? null,
            authorEmail: doc.author?.email?.toLowerCase() ?? null,
            objectType: doc.object_type,
            fileType: doc.file_type,
            createdTime: doc.created_at ? new Date(doc.created_at) : (previous?.createdTime ?? modifiedTime),
            modifiedTime,
            parentExternalId: doc.parent_id ?? null,
            acl,
            extra: {},
          });
        }
        // An individual connection with no owner left can show nobody anything: its documents are dropped.
        const index = tx as unknown as Db;
        if (refused.length > 0)
          await deleteDocuments(
            index,
            orgId,
            refused.map((externalId) => ({ source: SOURCE, connectionId, externalId })),
          );
        const result = await upsertDocuments(index, orgId, upserts, { ownerEmail });
        return {
          inserted: result.inserted,
          updated: result.rechunked + result.updated,
          unchanged: result.unchanged,
        };
      });
    },
  );

  app.post(
    '/custom-api/:connectionId/documents/delete',
    {
      config,
      schema: {
        params: customApiParamsSchema,
        body: customApiDeleteRequestSchema,
        response: { 200: customApiDeleteResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = apiKeyCallerOf(request);
      const { connectionId } = request.params;
      const deleted = await withConnection(db(), orgId, connectionId, (tx) =>
        deleteDocuments(
          tx as unknown as Db,
          orgId,
          request.body.ids.map((externalId) => ({ source: SOURCE, connectionId, externalId })),
        ),
      );
      return { deleted };
    },
  );

  app.put(
    '/custom-api/:connectionId/groups',
    {
      config,
      schema: {
        params: customApiParamsSchema,
        body: customApiGroupsRequestSchema,
        response: { 200: customApiGroupsResponseSchema },
      },
    },
    async (request) => {
      const { orgId } = apiKeyCallerOf(request);
      const { connectionId } = request.params;
      const members: GroupMember[] = [];
      const groups = new Set<string>();
      for (const group of request.body.groups) {
        const groupKey = customApiGroup(connectionId, group.id);
        groups.add(groupKey);
        for (const memberEmail of group.members) members.push({ groupKey, memberEmail });
      }
      const memberships = await withConnection(db(), orgId, connectionId, (tx) =>
        replaceConnectionGroups(tx, orgId, connectionId, members),
      );
      return { groups: groups.size, memberships };
    },
  );
};
