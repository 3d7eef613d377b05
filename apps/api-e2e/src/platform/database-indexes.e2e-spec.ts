import { MongoClient } from 'mongodb';
import { stackInfo } from '../support/stack-info';

/**
 * The indexes each service creates at start, by engine (docs/ENGINES.md, "Indexes on FerretDB"):
 * every declared one on MongoDB; on FerretDB only those that enforce something (unique), since it
 * reads through no other and every write pays for them.
 */
describe('the databases\' indexes', () => {
  let client: MongoClient;
  let ferretDb: boolean;

  beforeAll(async () => {
    client = await MongoClient.connect(stackInfo().mongoUrl);
    ferretDb = 'ferretdbVersion' in (await client.db('admin').command({ buildInfo: 1 }));
  });
  afterAll(() => client.close());

  async function indexesOf(database: string): Promise<Array<{ collection: string; name: string; unique: boolean }>> {
    const db = client.db(database);
    const found = [];
    for (const { name: collection } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      for (const index of await db.collection(collection).indexes()) found.push({ collection, name: index.name ?? '', unique: index.unique === true });
    }
    return found;
  }

  it.each(['identity', 'book', 'movie', 'note', 'event'])('%s: beside _id, only unique indexes on FerretDB; the declared ones on MongoDB', async (database) => {
    const indexes = await indexesOf(database);
    expect(indexes.some((index) => index.name === '_id_')).toBe(true);
    const secondary = indexes.filter((index) => index.name !== '_id_' && !index.unique);
    if (ferretDb) expect(secondary).toEqual([]);
    else expect(secondary.length).toBeGreaterThan(0);
  });

  it('identity keeps its unique uid: a second user with a taken uid is refused by the database itself', async () => {
    const users = client.db('identity').collection<{ _id: string; uid: string }>('users');
    const taken = await users.findOne({}, { projection: { uid: 1 } });
    expect(taken).not.toBeNull();
    const intruder = { _id: `index-check-${Date.now()}`, uid: taken!.uid };
    try {
      await expect(users.insertOne(intruder)).rejects.toMatchObject({ code: 11000 });
    } finally {
      await users.deleteOne({ _id: intruder._id });
    }
  });
});
