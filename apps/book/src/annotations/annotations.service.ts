import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import {
  Annotation, AnnotationFormat, AnnotationInput, AnnotationList, AnnotationReadQuery, ApiError, BookAnnotationsQuery, Caller,
  checkAnnotationPlacement, isPrivate, PageRequest, PictureRef, SimpleUser, UserRecord,
} from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { APP_CONFIG, Clock, CLOCK, formatTimestamp, JsonAround, jsonAround, JsonPieces, KeyedMutex, LOGGER, Logger, pageJson, ReadinessRegistry, ServiceJson, UsersDirectory } from '@plaza/platform';
import { RepairJournal, scheduleSweeps, Sequences, splitTarget, SweepResult } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { BookView } from '../books/book.schema';
import { BooksRepository } from '../books/books.repository';
import { BooksService } from '../books/books.service';
import { requireLogin } from '../collections/collections.service';
import { BookConfig } from '../config/book.config';
import { AnnotationPictureUrls } from '../common/pictures';
import { requireUser, simpleUserOf, simpleUsers } from '../common/users';
import { AnnotationDocument, CHAPTER_PAGE_ORDER, StoredPhoto } from './annotation.schema';
import { abstractOf, referencedPictures, renderHtml } from './annotation-content';
import { AnnotationsRepository } from './annotations.repository';

/** How often the journal is swept while the service runs (it is swept at start too). */
const SWEEP_INTERVAL_MS = 60_000;

const annotationTarget = (id: string) => `annotation:${id}`;

/** An annotation's JSON around its book, held for one author record and format (AnnotationsService.presentJson). */
interface HeldJson extends JsonAround {
  author: UserRecord | undefined;
  format: AnnotationFormat;
}

/**
 * Reading annotations with pictures. A private annotation exists only for its author: anyone
 * else gets 404/1001 for it, as for a missing one (docs/api/book.md), and only the author
 * changes or deletes a public one (403/6002).
 *
 * Crash consistency: a write with pictures changes the pictures (accepted, made public or
 * private, deleted) and the annotation in separate steps. Each runs under an entry of the
 * `annotation_repairs` journal naming the pictures; an entry left by a process that died midway
 * has `repair` settle those pictures from the annotation as stored (the sweep at start and every
 * minute): the ones it uses get its visibility, the others (a write that never finished, a
 * deleted annotation) are deleted.
 */
@Injectable()
export class AnnotationsService implements OnModuleInit, OnApplicationShutdown {
  private readonly lock = new KeyedMutex();
  /** By the document the local engine holds: gone with it when the annotation changes. */
  private readonly heldJson = new WeakMap<AnnotationDocument, HeldJson>();
  private readonly journal: RepairJournal;
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;

  constructor(
    private readonly annotations: AnnotationsRepository,
    private readonly books: BooksService,
    private readonly bookRecords: BooksRepository,
    private readonly users: UsersDirectory,
    private readonly pictures: PictureStore,
    private readonly pictureUrls: AnnotationPictureUrls,
    @InjectConnection() connection: Connection,
    private readonly sequences: Sequences,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BookConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly readiness: ReadinessRegistry,
  ) {
    this.journal = new RepairJournal(connection, 'annotation_repairs');
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'annotations-recovery', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), SWEEP_INTERVAL_MS, (err) => this.logger.warn({ err: err.message }, 'annotation repair sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  async onApplicationShutdown(): Promise<void> {
    this.schedule?.stop();
    await this.journal.flush();
  }

  async sweep(): Promise<SweepResult> {
    const result = await this.journal.sweep((target, keys, settled) => this.repair(target, keys, settled));
    if (result.entries > 0) this.logger.info({ ...result }, 'annotation writes left unfinished were repaired');
    return result;
  }

  /**
   * Settles the pictures an unfinished write named, from the annotation as stored, under the
   * annotation's lock. Not while the write may still run elsewhere (it may be about to use them).
   */
  async repair(target: string, keys: string[], settled: boolean): Promise<void> {
    const [kind, id] = splitTarget(target);
    if (kind !== 'annotation') throw new Error(`not an annotation target: ${target}`);
    if (!settled) throw new Error(`a write of annotation ${id} may still be running`);
    await this.lock.run(id, async () => {
      const doc = await this.annotations.byId(id);
      const used = new Set(Object.values(doc?.photos ?? {}).map((p) => p.key));
      if (doc) await this.pictures.setVisibility(keys.filter((k) => used.has(k)), !doc.private);
      await this.pictures.delete(keys.filter((k) => !used.has(k)));
    });
  }

  /** Runs a write that changes pictures and the annotation under a journal entry naming the pictures. */
  private withPictures<T>(id: string, keys: string[], work: () => Promise<T>): Promise<T> {
    return keys.length === 0 ? work() : this.journal.run([annotationTarget(id)], work, keys);
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
    await this.withPictures(doc._id, this.keysOf(photos), async () => {
      await this.pictures.setVisibility(this.keysOf(photos), isPublic);
      await this.annotations.insert(doc);
    });
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
      await this.withPictures(id, keys, async () => {
        await this.pictures.setVisibility(keys, isPublic);
        await this.annotations.replace(doc);
      });
      return this.present(doc, book, (await simpleUsers(this.users, [userId]))(userId), 'text');
    });
  }

  async remove(id: string, caller: Caller): Promise<Record<string, never>> {
    const userId = requireLogin(caller);
    return this.lock.run(id, async () => {
      const doc = await this.requireOwn(id, userId);
      // the annotation first: its pictures are unreachable from then on, even if deleting them fails
      // (then the journal entry stays, and the sweep deletes them)
      let deleted = false;
      await this.withPictures(id, this.keysOf(doc.photos), async () => {
        await this.annotations.delete(id);
        deleted = true;
        await this.pictures.delete(this.keysOf(doc.photos));
      }).catch((err: Error) => {
        if (!deleted) throw err;
        this.logger.warn({ annotation: id, err: err.message }, 'pictures of a deleted annotation could not be deleted; the repair sweep will');
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

  /** GET /v2/book/:id/annotations: public annotations only (docs/api/book.md, "Decisions", 6), by `order`, default rank. */
  async listByBook(bookId: string, query: BookAnnotationsQuery, page: PageRequest): Promise<ServiceJson<AnnotationList>> {
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
  async listByUser(ref: string, query: AnnotationReadQuery, page: PageRequest, caller: Caller): Promise<ServiceJson<AnnotationList>> {
    const user = await requireUser(this.users, ref);
    const { total, items } = await this.annotations.list({ authorId: user.id, includePrivate: caller.userId === user.id }, 'updated', page.start, page.count);
    return this.presentList(items, total, page, query.format ?? 'text', await this.bookRecords.byIds(items.map((a) => a.book_id)));
  }

  private async presentList(
    items: AnnotationDocument[],
    total: number,
    page: PageRequest,
    format: AnnotationFormat,
    books: Map<string, BookView>,
  ): Promise<ServiceJson<AnnotationList>> {
    const authors = await this.users.resolve(new Set(items.map((a) => a.author_id)));
    const annotations = items.flatMap((a) => {
      const book = books.get(a.book_id);
      return book ? [this.presentJson(a, book, authors.get(a.author_id), format)] : [];
    });
    return pageJson('annotations', page.start, total, annotations);
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

  present(doc: AnnotationDocument, book: BookView, author: SimpleUser, format: AnnotationFormat): Annotation {
    const { head, rest } = this.parts(doc, author, format);
    return { ...head, book: this.books.present(book), ...rest };
  }

  /**
   * `present` as JSON: the book's part held by BooksService.presentJson, and the annotation's own
   * parts (before and after its book) held beside the document the local engine holds, for as long
   * as it holds that document and the author's record and the format are the same: a list shows the
   * same annotations over and over, and presenting each again was a third of a page's cost
   * (docs/PERFORMANCE.md, "Search and lists"). Not for an annotation with pictures: their
   * addresses carry the time they were made.
   */
  private presentJson(doc: AnnotationDocument, book: BookView, author: UserRecord | undefined, format: AnnotationFormat): JsonPieces {
    const { head, tail } = this.aroundBook(doc, author, format);
    return [head, this.books.presentJson(book), tail];
  }

  /** The annotation's JSON around its book (`present`), held while the document, the author's record and the format are the same. */
  private aroundBook(doc: AnnotationDocument, author: UserRecord | undefined, format: AnnotationFormat): JsonAround {
    const encode = () => {
      const { head, rest } = this.parts(doc, simpleUserOf(author, doc.author_id), format);
      return jsonAround(head, 'book', rest);
    };
    if (Object.keys(doc.photos ?? {}).length > 0 || !this.annotations.isHeld(doc)) return encode();
    let held = this.heldJson.get(doc);
    if (!held || held.author !== author || held.format !== format) this.heldJson.set(doc, (held = { author, format, ...encode() }));
    return held;
  }

  /** An annotation's fields before its book and after it, in the order shown. */
  private parts(doc: AnnotationDocument, author: SimpleUser, format: AnnotationFormat): { head: Pick<Annotation, 'id' | 'book_id'>; rest: Omit<Annotation, 'id' | 'book_id' | 'book'> } {
    const urls = new Map(Object.entries(doc.photos ?? {}).map(([n, p]) => [Number(n), this.pictureUrls.url(p.key, p.format, !doc.private)]));
    const firstPicture = referencedPictures(doc.content).flatMap((n) => urls.get(n) ?? [])[0];
    return {
      head: { id: doc._id, book_id: doc.book_id },
      rest: {
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
      },
    };
  }
}
