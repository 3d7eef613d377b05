import { Injectable } from '@nestjs/common';
import { CelebrityViewsRepository } from '../celebrities/celebrity-views.repository';
import { Listings } from '../media/listing.schema';
import { ListingsRepository } from '../media/listings.repository';
import { albumPage, reviewForOutput } from '../media/media.render';
import { PhotosRepository } from '../media/photos.repository';
import { ReviewsRepository } from '../media/reviews.repository';
import { MovieListsRepository } from '../lists/movie-lists.repository';
import { Caps } from '../common/caps';
import { mapLimit } from '../common/store';
import { SubjectViewsRepository } from '../subjects/subject-views.repository';
import { ImportSession } from './import-session';

const PARALLEL = 4;

/**
 * Brings the derived data up to date after an import batch, in dependency order: listings
 * first (pages and parts read them), then the parts of subject and celebrity views built from
 * them, then celebrities' works, then the lists showing a changed Simple Subject. Every write
 * is skipped when the stored value is already right, so re-importing changes nothing.
 */
@Injectable()
export class DerivedViews {
  constructor(
    private readonly listings: ListingsRepository,
    private readonly subjectViews: SubjectViewsRepository,
    private readonly celebrityViews: CelebrityViewsRepository,
    private readonly photos: PhotosRepository,
    private readonly reviews: ReviewsRepository,
    private readonly lists: MovieListsRepository,
  ) {}

  async apply(session: ImportSession): Promise<void> {
    await mapLimit([...session.listings], PARALLEL, ([listing, change]) => this.listings.apply(listing, change));

    const { subjectPhotos, subjectReviews, subjectComments, celebrityPhotos } = session.refresh;
    await mapLimit([...subjectPhotos], PARALLEL, (id) => this.subjectPhotos(id));
    await mapLimit([...subjectReviews], PARALLEL, (id) => this.subjectReviews(id));
    await mapLimit([...subjectComments], PARALLEL, (id) => this.subjectComments(id));
    await mapLimit([...celebrityPhotos], PARALLEL, (id) => this.celebrityPhotos(id));

    await mapLimit([...session.works], PARALLEL, ([celebrityId, changes]) => this.celebrityViews.applyWorks(celebrityId, changes));
    if (session.simples.size > 0) await this.refreshLists(session);
  }

  private subjectPhotos(id: string): Promise<void> {
    return this.subjectViews.rebuildParts(id, async () => {
      const album = await this.listings.ids(Listings.subjectPhotos(id));
      const docs = await this.photos.byIds('subject', album.slice(0, Caps.photos));
      return { photos: albumPage(docs, album, 0), photos_total: album.length };
    });
  }

  private subjectReviews(id: string): Promise<void> {
    return this.subjectViews.rebuildParts(id, async () => {
      const ids = await this.listings.ids(Listings.subjectReviews(id));
      const docs = await this.reviews.byIds(ids.slice(0, Caps.popularReviews));
      return { popular_reviews: docs.map((d) => reviewForOutput(d.review)), reviews_total: ids.length };
    });
  }

  private subjectComments(id: string): Promise<void> {
    return this.subjectViews.rebuildParts(id, async () => ({ comments_total: (await this.listings.ids(Listings.subjectComments(id))).length }));
  }

  private celebrityPhotos(id: string): Promise<void> {
    return this.celebrityViews.rebuildPhotos(id, async () => {
      const album = await this.listings.ids(Listings.celebrityPhotos(id));
      const docs = await this.photos.byIds('celebrity', album.slice(0, Caps.celebrityPhotos));
      return { photos: albumPage(docs, album, 0), photos_total: album.length };
    });
  }

  private async refreshLists(session: ImportSession): Promise<void> {
    const affected = (await this.lists.all()).filter((l) => l.entries.some((e) => session.simples.has(e.subject_id)));
    await mapLimit(affected, PARALLEL, (l) =>
      this.lists.updateEntries(l._id, (entries) => entries.map((e) => ({ ...e, subject: session.simples.get(e.subject_id) ?? e.subject }))),
    );
  }
}
