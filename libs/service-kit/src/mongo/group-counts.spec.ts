import type { Model } from 'mongoose';
import { DatabaseEngine } from './database-engine';
import { groupCounts } from './group-counts';

interface Like {
  _id: string;
  note_id: string;
  note_privacy: string;
}

const likes: Like[] = [
  { _id: '1:a', note_id: '1', note_privacy: 'public' },
  { _id: '1:b', note_id: '1', note_privacy: 'public' },
  { _id: '1:c', note_id: '1', note_privacy: 'private' },
  { _id: '2:a', note_id: '2', note_privacy: 'public' },
];

/** A model whose collection streams `docs` with the projection asked for, and whose `$group` the test answers itself. */
function modelOf(docs: Like[], groupAnswer: unknown[] = []) {
  const asked: { pipelines: unknown[]; projections: unknown[] } = { pipelines: [], projections: [] };
  const model = {
    aggregate: (pipeline: unknown) => (asked.pipelines.push(pipeline), { exec: async () => groupAnswer }),
    collection: {
      find: (_filter: unknown, options: { projection: Record<string, number> }) => {
        asked.projections.push(options.projection);
        return (async function* () {
          for (const doc of docs) yield Object.fromEntries(Object.entries(doc).filter(([k]) => options.projection[k] === 1));
        })();
      },
    },
  };
  return { model: model as unknown as Model<Like>, asked };
}

const byKey = (rows: Array<{ key: Record<string, unknown>; n: number }>) => Object.fromEntries(rows.map((r) => [JSON.stringify(r.key), r.n]));

describe('groupCounts', () => {
  it('counts in one pass over the fields alone on the local engine, never with $group', async () => {
    const { model, asked } = modelOf(likes);
    const rows = await groupCounts(DatabaseEngine.fixed('local'), 'test.likes.counts', model, ['note_id', 'note_privacy']);
    expect(byKey(rows)).toEqual({
      '{"note_id":"1","note_privacy":"public"}': 2,
      '{"note_id":"1","note_privacy":"private"}': 1,
      '{"note_id":"2","note_privacy":"public"}': 1,
    });
    expect(asked).toEqual({ pipelines: [], projections: [{ note_id: 1, note_privacy: 1, _id: 0 }] });
  });

  it('asks MongoDB for the $group by those fields, and gives its rows in the same shape', async () => {
    const { model, asked } = modelOf([], [{ _id: { note_id: '1' }, n: 3 }, { _id: { note_id: '2' }, n: 1 }]);
    const rows = await groupCounts(DatabaseEngine.fixed('mongodb'), 'test.likes.counts', model, ['note_id']);
    expect(rows).toEqual([{ key: { note_id: '1' }, n: 3 }, { key: { note_id: '2' }, n: 1 }]);
    expect(asked.pipelines).toEqual([[{ $group: { _id: { note_id: '$note_id' }, n: { $sum: 1 } } }]]);
  });
});
