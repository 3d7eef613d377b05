import { Schema } from 'mongoose';
import { syncSchemaIndexes } from './schema-indexes';

/** A model over a collection that records what is asked of it. */
function model(collectionName: string, schema: Schema, existing: Array<{ name: string; unique?: boolean }> | 'missing') {
  const calls: string[] = [];
  return {
    calls,
    model: {
      collectionName,
      schema,
      collection: {
        indexes: async () => {
          if (existing === 'missing') throw Object.assign(new Error(`ns does not exist: ${collectionName}`), { code: 26 });
          return existing;
        },
        createIndex: async (fields: Record<string, unknown>, options: { unique?: boolean }) => {
          calls.push(`create ${JSON.stringify(fields)}${options.unique ? ' unique' : ''}`);
          return 'name';
        },
        dropIndex: async (name: string) => {
          calls.push(`drop ${name}`);
        },
      },
    },
  };
}

function users() {
  const schema = new Schema({ uid: { type: String, unique: true }, search_terms: [String] });
  schema.index({ search_terms: 1, _id: 1 });
  return schema;
}

function notes() {
  const schema = new Schema({ author_id: String, publish_time: Date });
  schema.index({ author_id: 1, publish_time: -1 });
  return schema;
}

describe('syncSchemaIndexes', () => {
  it('creates every declared index on MongoDB and drops none', async () => {
    const u = model('users', users(), [{ name: '_id_' }, { name: 'old_1' }]);
    const n = model('notes', notes(), 'missing');
    const result = await syncSchemaIndexes({ models: { User: u.model, Note: n.model } } as never, false);
    expect(u.calls).toEqual(['create {"uid":1} unique', 'create {"search_terms":1,"_id":1}']);
    expect(n.calls).toEqual(['create {"author_id":1,"publish_time":-1}']);
    expect(result).toEqual({ ensured: 3, dropped: [] });
  });

  it('on FerretDB creates only the unique ones and drops the non-unique ones an older version left', async () => {
    const u = model('users', users(), [{ name: '_id_' }, { name: 'uid_1', unique: true }, { name: 'search_terms_1__id_1' }]);
    const n = model('notes', notes(), [{ name: '_id_' }, { name: 'author_id_1_publish_time_-1' }]);
    const result = await syncSchemaIndexes({ models: { User: u.model, Note: n.model } } as never, true);
    expect(u.calls).toEqual(['drop search_terms_1__id_1', 'create {"uid":1} unique']);
    expect(n.calls).toEqual(['drop author_id_1_publish_time_-1']);
    expect(result).toEqual({ ensured: 1, dropped: ['users.search_terms_1__id_1', 'notes.author_id_1_publish_time_-1'] });
  });

  it('on FerretDB takes a collection not created yet as one without indexes', async () => {
    const u = model('users', users(), 'missing');
    await expect(syncSchemaIndexes({ models: { User: u.model } } as never, true)).resolves.toEqual({ ensured: 1, dropped: [] });
    expect(u.calls).toEqual(['create {"uid":1} unique']);
  });
});
