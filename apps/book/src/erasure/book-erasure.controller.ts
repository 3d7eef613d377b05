import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { UsersDirectory } from '@plaza/platform';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiError, Caller, erasureMessage, ErasureRequest, ErasureResponse } from '@plaza/contracts';
import type { Connection } from 'mongoose';
import { AnnotationsService } from '../annotations/annotations.service';
import { CollectionsService } from '../collections/collections.service';
import { ReviewsService } from '../reviews/reviews.service';

/**
 * `book.v1.erasure.run`, asked by identity when an account is deleted (docs/api/account.md): the
 * user's collection entries, reviews and annotations (with their pictures) go as their owner's
 * DELETE does, so every book's rating, rater count and tags follow under the book's journal
 * entry. Idempotent: a second run finds nothing.
 */
@Controller()
export class BookErasureController {
  constructor(
    private readonly directory: UsersDirectory,
    @InjectConnection() private readonly connection: Connection,
    private readonly collections: CollectionsService,
    private readonly reviews: ReviewsService,
    private readonly annotations: AnnotationsService,
  ) {}

  @MessagePattern(erasureMessage('book').subject)
  async erase(@Payload() req: ErasureRequest): Promise<ErasureResponse> {
    // the user is gone from identity: no page shows them from this instance's directory cache any longer
    this.directory.clear();
    const userId = req.user_id;
    // the owner's own caller: the services' checks then allow exactly what the user could do
    const caller: Caller = { userId, tier: 'basic' };
    const erased = { collections: 0, reviews: 0, annotations: 0 };
    const find = async (collection: string, filter: object) =>
      (await this.connection.collection(collection).find(filter, { projection: { _id: 1, book_id: 1 } }).toArray()) as unknown as Array<{ _id: unknown; book_id: string }>;

    for (const entry of await find('collections', { user_id: userId })) {
      if (await gone(() => this.collections.remove(entry.book_id, caller))) erased.collections++;
    }
    for (const review of await find('reviews', { author_id: userId })) {
      if (await gone(() => this.reviews.remove(String(review._id), caller))) erased.reviews++;
    }
    for (const annotation of await find('annotations', { author_id: userId })) {
      if (await gone(() => this.annotations.remove(String(annotation._id), caller))) erased.annotations++;
    }
    return { erased };
  }
}

/** Runs an owner's delete; a record (or book) already gone counts as erased by someone else. */
async function gone(erase: () => Promise<unknown>): Promise<boolean> {
  try {
    await erase();
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}
