import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PictureFormat } from '@plaza/contracts';
import { APP_CONFIG, LOGGER, Logger, NATS_CONNECTION } from '@plaza/platform';
import { PictureSigner, PictureStore, PictureUrls } from '@plaza/pictures';
import type { NatsConnection } from 'nats';
import { NoteConfig } from '../config/note.config';

const AREA = 'note';

/**
 * The note side of the one shared picture mechanism (libs/pictures): the gateway stores the
 * bytes as staged, this service accepts them into a note (setting who may see them), builds their
 * addresses, and deletes them with the note. A picture of a public note is served to anyone;
 * any other only through a signed, expiring address.
 */
@Injectable()
export class NotePictures implements OnModuleInit, OnApplicationShutdown {
  private readonly store: PictureStore;
  private readonly urls: PictureUrls;
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(APP_CONFIG) private readonly config: NoteConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.store = new PictureStore(nats);
    this.urls = new PictureUrls(config.PUBLIC_API_URL, new PictureSigner(config.PICTURE_SIGNING_KEY), config.PICTURE_URL_TTL_SECONDS);
  }

  /**
   * The address of a picture. Signed against wall-clock time, not the service CLOCK: the gateway
   * checks the expiry against its own wall clock.
   */
  address(picture: { key: string; format: PictureFormat }, isPublic: boolean): string {
    return this.urls.url(picture.key, picture.format, isPublic);
  }

  /** Accepts pictures into a note (no longer staged) and sets whether they are public. */
  async setVisibility(keys: string[], isPublic: boolean): Promise<void> {
    if (keys.length > 0) await this.store.setVisibility(keys, isPublic);
  }

  async delete(keys: string[]): Promise<void> {
    await this.store.delete(keys);
  }

  onModuleInit(): void {
    // pictures staged by a write that never finished (the gateway or this service died midway)
    const everyMs = Math.max(60_000, (this.config.STAGED_PICTURE_MAX_AGE_SECONDS * 1000) / 2);
    this.sweeper = setInterval(() => void this.sweep(), everyMs);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  private async sweep(): Promise<void> {
    try {
      const removed = await this.store.sweepStaged(AREA, this.config.STAGED_PICTURE_MAX_AGE_SECONDS * 1000);
      if (removed > 0) this.logger.info({ removed }, 'removed staged note pictures no note accepted');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sweeping staged note pictures failed');
    }
  }
}
