import { LocalKeyedModel } from './local-keyed-model';

interface View {
  _id: string;
  simple?: { title: string };
  big: string;
}

async function* from(docs: View[]): AsyncIterable<View> {
  yield* docs;
}

describe('LocalKeyedModel', () => {
  it('holds what `keep` picks of each document by `_id`, current after every write', async () => {
    const model = new LocalKeyedModel<View, { title: string }>((doc) => doc.simple);
    expect(model.loaded).toBe(false);
    await model.ready(() => from([{ _id: '1', simple: { title: 'a' }, big: 'x' }, { _id: '2', big: 'no simple yet' }]));
    expect(model.loaded).toBe(true);
    expect([model.get('1'), model.get('2'), model.size]).toEqual([{ title: 'a' }, undefined, 1]);
    model.put({ _id: '2', simple: { title: 'b' }, big: '' });
    model.put({ _id: '1', simple: { title: 'a2' }, big: '' });
    model.remove('3');
    expect([model.get('1'), model.get('2')]).toEqual([{ title: 'a2' }, { title: 'b' }]);
    model.remove('1');
    expect(model.get('1')).toBeUndefined();
  });
});
