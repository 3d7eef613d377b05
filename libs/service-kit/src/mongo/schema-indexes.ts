import type { Connection, IndexDefinition, IndexOptions } from 'mongoose';

/** What one collection's index set needs, as read from the database and the schema. */
interface CollectionIndexes {
  collectionName: string;
  schema: { indexes(): Array<[IndexDefinition, IndexOptions]> };
  collection: {
    indexes(): Promise<Array<{ name?: string; unique?: boolean }>>;
    createIndex(fields: IndexDefinition, options: IndexOptions): Promise<string>;
    dropIndex(name: string): Promise<unknown>;
  };
}

/** What `syncSchemaIndexes` did: shown in the start-up log. */
export interface IndexSync {
  /** Indexes asked for (`createIndex` is a no-op for one that exists). */
  ensured: number;
  /** `<collection>.<index>`: non-unique indexes an older version left on FerretDB, dropped. */
  dropped: string[];
}

/**
 * Creates the indexes the schemas declare, called by bootstrapService at start (mongoose's
 * `autoIndex` is off: it would create them all on either engine).
 *
 * - MongoDB: every declared index, as `autoIndex` did, in the background of the start; the list and
 *   search queries use them (each service's `indexes.spec.ts` checks which).
 * - FerretDB v1 (SQLite), awaited before the first request: only the unique ones, which enforce
 *   something (identity's `uid`).
 *   FerretDB filters in SQL by `_id` alone and decodes every document for any other filter, so no
 *   query ever reads through another index, while every insert, update and delete of the
 *   collection writes it (docs/ENGINES.md, "Indexes on FerretDB"). Non-unique indexes found there
 *   (created by an older version) are dropped.
 */
export async function syncSchemaIndexes(connection: Pick<Connection, 'models'>, ferretDb: boolean): Promise<IndexSync> {
  const result: IndexSync = { ensured: 0, dropped: [] };
  for (const model of Object.values(connection.models) as unknown as CollectionIndexes[]) {
    const declared = model.schema.indexes();
    const wanted = ferretDb ? declared.filter(([, options]) => options?.unique === true) : declared;
    if (ferretDb) {
      for (const index of await existingIndexes(model)) {
        if (!index.name || index.name === '_id_' || index.unique === true) continue;
        await model.collection.dropIndex(index.name);
        result.dropped.push(`${model.collectionName}.${index.name}`);
      }
    }
    for (const [fields, options] of wanted) {
      await model.collection.createIndex(fields, options ?? {});
      result.ensured++;
    }
  }
  return result;
}

/** NamespaceNotFound: the collection is not created yet (mongoose creates it as the model starts). */
const NAMESPACE_NOT_FOUND = 26;

async function existingIndexes(model: CollectionIndexes): Promise<Array<{ name?: string; unique?: boolean }>> {
  try {
    return await model.collection.indexes();
  } catch (err) {
    if ((err as { code?: number }).code === NAMESPACE_NOT_FOUND) return [];
    throw err;
  }
}
