import { Injectable } from '@nestjs/common';
import { ImportBatch, ImportBatchResult, SimpleUser } from '@plaza/contracts';
import { CacheInvalidator, ImportKindHandler, runImportBatch, UsersDirectory } from '@plaza/platform';
import { CatalogueImporter } from './catalogue.importer';
import { DerivedViews } from './derived-views';
import { ImportSession } from './import-session';
import { ListImporter } from './list.importer';
import { authorRef, MediaImporter } from './media.importer';
import {
  CelebrityPhotoRecord, CelebrityRecord, MovieCommentRecord, MovieListRecord, MoviePhotoRecord, MovieRecord, MovieReviewRecord,
} from './movie-import.records';

const AUTHORED_KINDS = new Set(['movie_photo', 'celebrity_photo', 'movie_review', 'movie_comment']);

/**
 * One import batch of the movie kinds (docs/api/import.md): every line validated and stored
 * (a bad line is reported with its number, the others still load), then the derived views
 * brought up to date, then every gateway told to drop cached movie answers.
 */
@Injectable()
export class MovieImportService {
  constructor(
    private readonly catalogue: CatalogueImporter,
    private readonly media: MediaImporter,
    private readonly lists: ListImporter,
    private readonly derived: DerivedViews,
    private readonly users: UsersDirectory,
    private readonly cache: CacheInvalidator,
  ) {}

  async importBatch(batch: ImportBatch): Promise<ImportBatchResult> {
    const session = new ImportSession(await this.resolveAuthors(batch));
    const handlers: Record<string, ImportKindHandler<object>> = {
      movie: { record: MovieRecord, upsert: (r) => this.catalogue.movie(r as MovieRecord, session) },
      celebrity: { record: CelebrityRecord, upsert: (r) => this.catalogue.celebrity(r as CelebrityRecord, session) },
      movie_photo: { record: MoviePhotoRecord, upsert: (r) => this.media.subjectPhoto(r as MoviePhotoRecord, session) },
      celebrity_photo: { record: CelebrityPhotoRecord, upsert: (r) => this.media.celebrityPhoto(r as CelebrityPhotoRecord, session) },
      movie_review: { record: MovieReviewRecord, upsert: (r) => this.media.review(r as MovieReviewRecord, session) },
      movie_comment: { record: MovieCommentRecord, upsert: (r) => this.media.comment(r as MovieCommentRecord, session) },
      movie_list: { record: MovieListRecord, upsert: (r) => this.lists.list(r as MovieListRecord) },
    };
    const result = await runImportBatch(batch, handlers);
    await this.derived.apply(session);
    if (result.results.some((r) => r.ok)) this.cache.areas('movie');
    return result;
  }

  /**
   * Authors of the batch's photos, reviews and comments, looked up in identity at once. The
   * Simple User shown is identity's as it is now (never names from the record), so the
   * directory's cache is dropped first: users may have been imported a moment ago.
   */
  private async resolveAuthors(batch: ImportBatch): Promise<Map<string, SimpleUser>> {
    const refs = batch.lines.filter((l) => AUTHORED_KINDS.has(l.kind)).map((l) => authorRef(l.record)).filter((r): r is string => r !== undefined);
    if (refs.length === 0) return new Map();
    this.users.clear();
    const found = await this.users.resolve(refs);
    return new Map([...found].map(([ref, u]) => [ref, { id: u.id, name: u.name, uid: u.uid, signature: u.signature ?? '', alt: u.alt, avatar: u.avatar }]));
  }
}
