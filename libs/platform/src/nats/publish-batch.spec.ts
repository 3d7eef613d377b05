import { PublishBatch } from './publish-batch';

describe('PublishBatch', () => {
  it('publishes what one loop turn queued together, in order, after the turn', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    batch.add(() => sent.push('a'));
    batch.add(() => sent.push('b'));
    expect(sent).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['a', 'b']);
  });

  it('starts a new batch for what is queued after a flush', async () => {
    const batch = new PublishBatch();
    const flushes: number[] = [];
    batch.add(() => flushes.push(1));
    await new Promise((r) => setImmediate(r));
    batch.add(() => flushes.push(2));
    await new Promise((r) => setImmediate(r));
    expect(flushes).toEqual([1, 2]);
  });

  it('publishes the rest when one publish throws, and throws nothing out of the flush', async () => {
    const batch = new PublishBatch();
    const sent: string[] = [];
    const warning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    batch.add(() => {
      throw new Error('connection closed');
    });
    batch.add(() => sent.push('after'));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual(['after']);
    expect(warning).toHaveBeenCalledWith(expect.objectContaining({ message: 'connection closed' }));
    warning.mockRestore();
  });
});
