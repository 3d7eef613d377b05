import { PictureFormat } from '@plaza/contracts';
import { PICTURE_BUCKET } from '@plaza/platform';
import { randomBytes } from 'node:crypto';
import { NatsConnection, ObjectStore, StorageType } from 'nats';
import { EXTENSIONS } from './sniff';

export interface StoredPictureMeta {
  /** Area that owns it (`note`, `book`). */
  area: string;
  format: PictureFormat;
  /** Served without a signature only when true. */
  public: boolean;
  /** True until the owning service accepts it into a note or annotation. */
  staged: boolean;
}

/**
 * Pictures live in a JetStream object store: durable on NATS's own volume, chunked so a 3 MiB
 * picture never becomes one NATS message, and reachable from the gateway (which stores and
 * serves bytes) and from the owning service (which decides visibility and deletes).
 */
export class PictureStore {
  private store?: Promise<ObjectStore>;

  constructor(private readonly nc: NatsConnection) {}

  private bucket(): Promise<ObjectStore> {
    if (!this.store) {
      this.store = this.nc.jetstream().views.os(PICTURE_BUCKET, { storage: StorageType.File, description: 'note and annotation pictures' });
      this.store.catch(() => (this.store = undefined));
    }
    return this.store;
  }

  static newKey(area: string): string {
    return `${area}-${randomBytes(16).toString('hex')}`;
  }

  static fileName(key: string, format: PictureFormat): string {
    return `${key}.${EXTENSIONS[format]}`;
  }

  async put(key: string, bytes: Uint8Array, meta: StoredPictureMeta): Promise<void> {
    const os = await this.bucket();
    await os.putBlob({ name: key, metadata: toMetadata(meta) }, bytes);
  }

  async info(key: string): Promise<StoredPictureMeta | undefined> {
    const os = await this.bucket();
    const info = await os.info(key);
    if (!info || info.deleted) return undefined;
    return fromMetadata(info.metadata);
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    const os = await this.bucket();
    return (await os.getBlob(key)) ?? undefined;
  }

  /** Marks pictures accepted (no longer staged) and sets who may see them without a signature. */
  async setVisibility(keys: string[], isPublic: boolean): Promise<void> {
    const os = await this.bucket();
    for (const key of keys) {
      const info = await os.info(key);
      if (!info || info.deleted) continue;
      const meta = fromMetadata(info.metadata);
      if (!meta || (!meta.staged && meta.public === isPublic)) continue;
      await os.update(key, { name: key, metadata: toMetadata({ ...meta, public: isPublic, staged: false }) });
    }
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const os = await this.bucket();
    await Promise.all(keys.map((key) => os.delete(key).catch(() => undefined)));
  }

  /** Deletes pictures of an area that were uploaded but never accepted (a write that failed midway). */
  async sweepStaged(area: string, olderThanMs: number): Promise<number> {
    const os = await this.bucket();
    const cutoff = Date.now() - olderThanMs;
    const stale: string[] = [];
    for (const info of await os.list()) {
      const meta = fromMetadata(info.metadata);
      if (meta?.area === area && meta.staged && Date.parse(info.mtime) < cutoff) stale.push(info.name);
    }
    await this.delete(stale);
    return stale.length;
  }
}

function toMetadata(meta: StoredPictureMeta): Record<string, string> {
  return { area: meta.area, format: meta.format, public: String(meta.public), staged: String(meta.staged) };
}

function fromMetadata(metadata: Record<string, string> | undefined): StoredPictureMeta | undefined {
  if (!metadata?.area || !metadata.format) return undefined;
  return {
    area: metadata.area,
    format: metadata.format as PictureFormat,
    public: metadata.public === 'true',
    staged: metadata.staged === 'true',
  };
}
