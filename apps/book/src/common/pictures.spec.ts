import { PictureStore } from '@plaza/pictures';
import { BookConfig } from '../config/book.config';
import { StagedPictureSweeper } from './pictures';

describe('staged picture sweeper', () => {
  const config = { PICTURE_SWEEP_INTERVAL_MS: 600_000, PICTURE_STAGED_MAX_AGE_MS: 1_800_000 } as BookConfig;
  const logger = { info: jest.fn(), warn: jest.fn() };

  it('removes stale staged pictures of the book area only', async () => {
    const store = { sweepStaged: jest.fn().mockResolvedValue(2) };
    const sweeper = new StagedPictureSweeper(store as unknown as PictureStore, config, logger as never);
    expect(await sweeper.sweep()).toBe(2);
    expect(store.sweepStaged).toHaveBeenCalledWith('book', 1_800_000);
  });

  it('survives an unreachable store and tries again next time', async () => {
    const store = { sweepStaged: jest.fn().mockRejectedValueOnce(new Error('no JetStream')).mockResolvedValue(0) };
    const sweeper = new StagedPictureSweeper(store as unknown as PictureStore, config, logger as never);
    expect(await sweeper.sweep()).toBe(0);
    expect(logger.warn).toHaveBeenCalled();
    expect(await sweeper.sweep()).toBe(0);
  });

  it('sweeps on a timer from start-up until shutdown', () => {
    jest.useFakeTimers();
    try {
      const store = { sweepStaged: jest.fn().mockResolvedValue(0) };
      const sweeper = new StagedPictureSweeper(store as unknown as PictureStore, config, logger as never);
      sweeper.onApplicationBootstrap();
      jest.advanceTimersByTime(600_000 * 3);
      expect(store.sweepStaged).toHaveBeenCalledTimes(3);
      sweeper.onModuleDestroy();
      jest.advanceTimersByTime(600_000 * 3);
      expect(store.sweepStaged).toHaveBeenCalledTimes(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
