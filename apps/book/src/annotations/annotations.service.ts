import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import {
  Annotation, AnnotationFormat, AnnotationInput, AnnotationList, AnnotationReadQuery, ApiError, BookAnnotationsQuery, Caller,
  checkAnnotationPlacement, envelope, isPrivate, PageRequest, PictureRef, SimpleUser,
} from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, KeyedMutex, LOGGER, Logger, UsersDirectory, withinPageBudget } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { BookDocument } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { BooksService } from '../books/books.service';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { AnnotationPictureUrls } from '../shared/pictures';
import { requireUser, simpleUsers } from '../shared/users';
import { AnnotationDocument, CHAPTER_PAGE_ORDER, StoredPhoto } from './annotation.schema';
import { abstractOf, referencedPictures, renderHtml } from './annotation-content';
import { AnnotationsRepository } from './annotations.repository';

/**
 * Reading annotations with pictures. A private annotation exists only for its author: anyone
 * else gets 404/1001 for it, as for a missing one (CONTRACT.md section 7), and only the author
 * changes or deletes a public one (403/6002).
 */
@Injectable()
export class AnnotationsService {
  private readonly lock = new KeyedMutex();
  private readonly sequences: Sequences;

  constructor(
    private readonly annotations: AnnotationsRepository,
    private readonly books: BooksService,
    private readonly bookRecords: BooksRepository,
    private readonly users: UsersDirectory,
    private readonly pictures: PictureStore,
    private readonly pictureUrls: AnnotationPictureUrls,
    @InjectConnection() connection: Connection,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.sequences = new Sequences(connection);
  }

  async create(bookId: string, input: AnnotationInput, pictures: PictureRef[], caller: Caller): Promise<Annotation> {
    const userId = requireLogin(caller);
    checkAnnotationPlacement(input);
    const book = await this.books.requireBook(bookId);
    const photos = this.photosOf(pictures);
    const isPublic = !isPrivate(input.privacy);
    const seq = await this.sequences.next('annotation');
    const now = this.clock.now();
    const doc: AnnotationDocument = {
      _id: String(seq),
      seq,
      book_id: bookId,
      author_id: userId,
      ...this.placementOf(input),
      private: !isPublic,
      content: input.content,
      photos,
      last_photo: Math.max(0, ...pictures.map((p) => p.number)),
      comments_count: 0,
      created: now,
      updated: now,
    };
    // accept the pictures before the annotation points at them: a failure here leaves no annotation
    await this.pictures.setVisibility(this.keysOf(photos), isPublic);
    await this.annotations.insert(doc);
    return this.present(doc, book, (await simpleUsers(this.users, [userId]))(userId), 'text');
  }

  async update(id: string, input: AnnotationInput, pictures: PictureRef[], caller: Caller): Promise<Annotation> {
    const userId = requireLogin(caller);
    checkAnnotationPlacement(input);
    return this.lock.run(id, async () => {
      const previous = await this.requireOwn(id, userId);
      const reused = pictures.filter((p) => previous.photos[String(p.number)] !== undefined).map((p) => p.number);
      if (reused.length > 0) throw new ApiError('invalid_args', `picture number ${reused.join(', ')} is already used; upload under a new number`);
      const book = await this.books.requireBook(previous.book_id);
      const photos = { ...previous.photos, ...this.photosOf(pictures) };
      const isPublic = !isPrivate(input.privacy);
      const doc: AnnotationDocument = {
        ...previous,
        page_no: undefined,
        ...this.placementOf(input),
        private: !isPublic,
        content: input.content,
        photos,
        last_photo: Math.max(previous.last_photo ?? 0, ...pictures.map((p) => p.number)),
        updated: this.clock.now(),
      };
      if (doc.page_no === undefined) delete doc.page_no;
      // new pictures, and the old ones too when the annotation changed between public and private
      const keys = previous.private === !isPublic ? this.keysOf(this.photosOf(pictures)) : this.keysOf(photos);
      await this.pictures.setVisibility(keys, isPublic);
      await this.annotations.replace(doc);
      return this.present(doc, book, (await simpleUsers(this.users, [userId]))(userId), 'text');
    });
  }

  async remove(id: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const doc = await this.requireOwn(id, userId);
      // the annotation first: its pictures are unreachable from then on, even if deleting them fails
      await this.annotations.delete(id);
      await this.pictures.delete(this.keysOf(doc.photos)).catch((err: Error) => {
        this.logger.warn({ annotation: id, err: err.message }, 'pictures of a deleted annotation could not be deleted');
      });
      return {};
    });
  }

  async get(id: string, query: AnnotationReadQuery, caller: Caller): Promise<Annotation> {
    const doc = await this.annotations.byId(id);
    if (!doc || (doc.private && doc.author_id !== caller.userId)) throw new ApiError('uri_not_found', `no annotation ${id}`);
    const [book, authors] = await Promise.all([this.books.requireBook(doc.book_id), simpleUsers(this.users, [doc.author_id])]);
    return this.present(doc, book, authors(doc.author_id), query.format ?? 'text');
  }

  /** GET /v2/book/:id/annotations: public annotations only (spec), by `order`, default rank. */
  async listByBook(bookId: string, query: BookAnnotationsQuery, page: PageRequest): Promise<AnnotationList> {
    const book = await this.books.requireBook(bookId);
    const { total, items } = await this.annotations.list(
      { bookId, pageNo: query.page, includePrivate: false },
      query.order ?? 'rank',
      page.start,
      page.count,
    );
    return this.presentList(items, total, page, query.format ?? 'text', new Map([[book._id, book]]));
  }

  /** GET /v2/book/user/:name/annotations, last changed first; the author also sees private ones. */
  async listByUser(ref: string, query: AnnotationReadQuery, page: PageRequest, caller: Caller): Promise<AnnotationList> {
    const user = await requireUser(this.users, ref);
    const { total, items } = await this.annotations.list({ authorId: user.id, includePrivate: caller.userId === user.id }, 'updated', page.start, page.count);
    return this.presentList(items, total, page, query.format ?? 'text', await this.bookRecords.byIds(items.map((a) => a.book_id)));
  }

  private async presentList(
    items: AnnotationDocument[],
    total: number,
    page: PageRequest,
    format: AnnotationFormat,
    books: Map<string, BookDocument>,
  ): Promise<AnnotationList> {
    const authors = await simpleUsers(this.users, [...new Set(items.map((a) => a.author_id))]);
    const annotations = items.flatMap((a) => {
      const book = books.get(a.book_id);
      return book ? [this.present(a, book, authors(a.author_id), format)] : [];
    });
    return envelope('annotations', page.start, total, withinPageBudget(annotations));
  }

  /** The caller's own annotation; someone else's private one is as good as missing. */
  private async requireOwn(id: string, userId: string): Promise<AnnotationDocument> {
    const doc = await this.annotations.byId(id);
    if (!doc || (doc.private && doc.author_id !== userId)) throw new ApiError('uri_not_found', `no annotation ${id}`);
    if (doc.author_id !== userId) throw new ApiError('unauthorized_error', 'only the author may change or delete an annotation');
    return doc;
  }

  private placementOf(input: AnnotationInput): Pick<AnnotationDocument, 'page_no' | 'chapter' | 'page_order'> {
    return input.page !== undefined
      ? { page_no: input.page, chapter: '', page_order: input.page }
      : { chapter: input.chapter ?? '', page_order: CHAPTER_PAGE_ORDER };
  }

  private photosOf(pictures: PictureRef[]): Record<string, StoredPhoto> {
    return Object.fromEntries(pictures.map((p) => [String(p.number), { key: p.key, format: p.format, width: p.width, height: p.height }]));
  }

  private keysOf(photos: Record<string, StoredPhoto>): string[] {
    return Object.values(photos).map((p) => p.key);
  }

  present(doc: AnnotationDocument, book: BookDocument, author: SimpleUser, format: AnnotationFormat): Annotation {
    const urls = new Map(Object.entries(doc.photos ?? {}).map(([n, p]) => [Number(n), this.pictureUrls.url(p.key, p.format, !doc.private)]));
    const firstPicture = referencedPictures(doc.content).flatMap((n) => urls.get(n) ?? [])[0];
    return {
      id: doc._id,
      book_id: doc.book_id,
      book: this.books.present(book),
      author_id: doc.author_id,
      author_user: author,
      chapter: doc.chapter ?? '',
      page_no: doc.page_no ?? 0,
      privacy: doc.private ? 2 : 1,
      abstract: abstractOf(doc.content),
      content: format === 'html' ? renderHtml(doc.content, (n) => urls.get(n)) : doc.content,
      abstract_photo: firstPicture ?? '',
      photos: Object.fromEntries([...urls.entries()].sort(([a], [b]) => a - b).map(([n, url]) => [String(n), url])),
      last_photo: doc.last_photo ?? 0,
      comments_count: doc.comments_count ?? 0,
      hasmath: false,
      time: formatTimestamp(new Date(doc.created), this.config.SERVICE_TIMEZONE),
    };
  }
}
