import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiError, Caller, Review, ReviewCreateInput, ReviewUpdateInput, SimpleUser } from '@plaza/contracts';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, KeyedMutex, UsersDirectory } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { BookDocument } from '../books/book.schema';
import { BooksService } from '../books/books.service';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { userRating } from '../shared/contributions';
import { simpleUsers } from '../shared/users';
import { ReviewDocument } from './review.schema';
import { ReviewsRepository } from './reviews.repository';

/**
 * Book reviews. A review's rating counts in the book's rating like a collection's (r as 2r out of
 * 10, CONTRACT.md section 7). Only the author changes or deletes a review (403/6002).
 */
@Injectable()
export class ReviewsService {
  private readonly lock = new KeyedMutex();
  private readonly sequences: Sequences;

  constructor(
    private readonly reviews: ReviewsRepository,
    private readonly books: BooksService,
    private readonly users: UsersDirectory,
    @InjectConnection() connection: Connection,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
  ) {
    this.sequences = new Sequences(connection);
  }

  async create(input: ReviewCreateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    await this.books.requireBook(input.book);
    const now = this.clock.now();
    const doc: ReviewDocument = {
      _id: await this.sequences.next('review'),
      book_id: input.book,
      author_id: userId,
      title: input.title.trim(),
      content: input.content,
      ...(input.rating ? { rating: input.rating } : {}),
      votes: 0,
      useless: 0,
      comments: 0,
      published: now,
      updated: now,
    };
    await this.reviews.insert(doc);
    const book = await this.books.applyContribution(doc.book_id, undefined, doc);
    return this.present(doc, book, await this.author(userId));
  }

  async update(id: string, input: ReviewUpdateInput, caller: Caller): Promise<Review> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      const { rating: _old, ...kept } = previous;
      const doc: ReviewDocument = {
        ...kept,
        title: input.title.trim(),
        content: input.content,
        ...(input.rating ? { rating: input.rating } : {}),
        updated: this.clock.now(),
      };
      await this.reviews.replace(doc);
      const book = await this.books.applyContribution(doc.book_id, previous, doc);
      return this.present(doc, book, await this.author(userId));
    });
  }

  async remove(id: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      await this.reviews.delete(previous._id);
      await this.books.applyContribution(previous.book_id, previous, undefined);
      return {};
    });
  }

  private async requireOwn(id: string, userId: string): Promise<ReviewDocument> {
    // ids beyond 15 digits cannot name a stored review (numbers stay exact up to 2^53)
    const review = id.length <= 15 ? await this.reviews.byId(Number(id)) : null;
    if (!review) throw new ApiError('review_not_found', `no review ${id}`);
    if (review.author_id !== userId) throw new ApiError('unauthorized_error', 'only the author may change or delete a review');
    return review;
  }

  private async author(userId: string): Promise<SimpleUser> {
    return (await simpleUsers(this.users, [userId]))(userId);
  }

  /** The create and update answers carry the full `content` instead of `summary` (spec "Book review"). */
  private present(doc: ReviewDocument, book: BookDocument, author: SimpleUser): Review {
    const rating = userRating(doc.rating);
    const zone = this.config.SERVICE_TIMEZONE;
    return {
      id: doc._id,
      title: doc.title,
      alt: `${this.config.PUBLIC_WEB_URL.replace(/\/$/, '')}/book/review/${doc._id}/`,
      author,
      book: this.books.present(book),
      ...(rating ? { rating } : {}),
      votes: doc.votes ?? 0,
      useless: doc.useless ?? 0,
      comments: doc.comments ?? 0,
      content: doc.content,
      published: formatTimestamp(new Date(doc.published), zone),
      updated: formatTimestamp(new Date(doc.updated), zone),
    };
  }
}
