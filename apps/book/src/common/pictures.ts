import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy, Provider } from '@nestjs/common';
import { BOOK_PICTURE_AREA, PictureFormat } from '@plaza/contracts';
import { PictureSigner, PictureStore, PictureUrls } from '@plaza/pictures';
import { APP_CONFIG, Clock, CLOCK, LOGGER, Logger, NATS_CONNECTION } from '@plaza/platform';
import type { NatsConnection } from 'nats';
import { BookConfig } from '../config/book.config';

/** The object store of pictures (bytes never travel in messages) and the addresses of pictures. */
export const pictureProviders: Provider[] = [
  { provide: PictureStore, inject: [NATS_CONNECTION], useFactory: (nc: NatsConnection) => new PictureStore(nc) },
  {
    provide: PictureUrls,
    inject: [APP_CONFIG],
    useFactory: (config: BookConfig) => new PictureUrls(config.PUBLIC_API_URL, new PictureSigner(config.PICTURE_SIGNING_KEY), config.PICTURE_URL_TTL_SECONDS),
  },
];

/** Addresses of an annotation's pictures: plain for public ones, signed and expiring for private ones. */
@Injectable()
export class AnnotationPictureUrls {
  constructor(
    private readonly urls: PictureUrls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  url(key: string, format: PictureFormat, isPublic: boolean): string {
    return this.urls.url(key, format, isPublic, Math.floor(this.clock.now().getTime() / 1000));
  }
}

/**
 * Removes pictures that the gateway stored for an annotation write that never completed (the
 * gateway deletes them itself when the write fails; this covers a crash in between).
 */
@Injectable()
export class StagedPictureSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: PictureStore,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.PICTURE_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    try {
      const removed = await this.store.sweepStaged(BOOK_PICTURE_AREA, this.config.PICTURE_STAGED_MAX_AGE_MS);
      if (removed > 0) this.logger.info({ removed }, 'removed stale staged annotation pictures');
      return removed;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'staged picture sweep failed; will retry');
      return 0;
    }
  }
}
