import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Model } from 'mongoose';
import { AppDocument } from './app.schema';

export type StoredApp = AppDocument;

/** Client secrets are long random strings, so a plain SHA-256 is enough to keep them unreadable at rest. */
export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

@Injectable()
export class AppsRepository {
  constructor(@InjectModel(AppDocument.name) private readonly apps: Model<AppDocument>) {}

  byClientId(clientId: string): Promise<StoredApp | null> {
    return this.apps.findById(clientId).lean<StoredApp>().exec();
  }

  async upsert(app: StoredApp): Promise<void> {
    await this.apps.replaceOne({ _id: app._id }, app, { upsert: true }).exec();
  }

  secretMatches(app: StoredApp, secret: string | undefined): boolean {
    if (!app.secret_hash || secret === undefined) return false;
    const a = Buffer.from(app.secret_hash);
    const b = Buffer.from(hashClientSecret(secret));
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
