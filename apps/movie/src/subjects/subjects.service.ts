import { Injectable } from '@nestjs/common';
import {
  ApiError, MovieSubject, MovieSubjectPageRequest, MovieTier, SubjectCommentsPage, SubjectPhotosPage, SubjectReviewsPage,
} from '@plaza/contracts';
import { CommentsRepository } from '../media/comments.repository';
import { Listings } from '../media/listing.schema';
import { ListingsRepository } from '../media/listings.repository';
import { albumPage, commentForOutput, reviewForOutput } from '../media/media.render';
import { PhotosRepository } from '../media/photos.repository';
import { ReviewsRepository } from '../media/reviews.repository';
import { simpleSubjectForTier, subjectForTier } from '../common/tiers';
import { SubjectImdbRepository } from './subject-imdb.repository';
import { SubjectViewDocument } from './subject-view.schema';
import { SubjectViewsRepository } from './subject-views.repository';

/**
 * The subject as shown: its rendered record plus the derived parts. A count the record states
 * may be larger than what was loaded (a catalogue keeps a sample of comments), never smaller.
 */
export function assembleSubject(view: SubjectViewDocument): MovieSubject {
  return {
    ...view.subject,
    // views rendered before subjects had an IMDb id
    imdb: view.subject.imdb ?? '',
    comments_count: Math.max(view.subject.comments_count, view.comments_total),
    reviews_count: Math.max(view.subject.reviews_count, view.reviews_total),
    photos: view.photos,
    popular_reviews: view.popular_reviews,
  };
}

/** Reads of a subject and of its photos, reviews and short comments. */
@Injectable()
export class SubjectsService {
  constructor(
    private readonly views: SubjectViewsRepository,
    private readonly listings: ListingsRepository,
    private readonly photos: PhotosRepository,
    private readonly reviews: ReviewsRepository,
    private readonly comments: CommentsRepository,
    private readonly imdb: SubjectImdbRepository,
  ) {}

  async subject(id: string, tier: MovieTier): Promise<MovieSubject> {
    return subjectForTier(assembleSubject(await this.view(id)), tier);
  }

  /** The subject whose record names this IMDb id: the same answer as by its id. */
  async subjectByImdb(imdb: string, tier: MovieTier): Promise<MovieSubject> {
    const entry = await this.imdb.byImdb(imdb);
    const view = entry ? await this.views.byId(entry.subject_id) : null;
    // an entry left by an import that stopped midway names a subject that does not show the id
    if (!view || view.subject.imdb !== imdb) throw new ApiError('uri_not_found', `no movie subject with imdb ${imdb}`);
    return subjectForTier(assembleSubject(view), tier);
  }

  async photoPage(req: MovieSubjectPageRequest): Promise<SubjectPhotosPage> {
    const [view, album] = await Promise.all([this.view(req.id), this.listings.ids(Listings.subjectPhotos(req.id))]);
    const docs = await this.photos.byIds('subject', album.slice(req.start, req.start + req.count));
    const photos = albumPage(docs, album, req.start);
    return { start: req.start, count: photos.length, total: album.length, subject: simpleSubjectForTier(view.simple, req.caller.tier), photos };
  }

  /** Most useful first (the same order as `popular_reviews`). */
  async reviewPage(req: MovieSubjectPageRequest): Promise<SubjectReviewsPage> {
    const [view, ids] = await Promise.all([this.view(req.id), this.listings.ids(Listings.subjectReviews(req.id))]);
    const docs = await this.reviews.byIds(ids.slice(req.start, req.start + req.count));
    const reviews = docs.map((d) => reviewForOutput(d.review));
    return { start: req.start, count: reviews.length, total: ids.length, subject: simpleSubjectForTier(view.simple, req.caller.tier), reviews };
  }

  /** Newest first. */
  async commentPage(req: MovieSubjectPageRequest): Promise<SubjectCommentsPage> {
    const [view, ids] = await Promise.all([this.view(req.id), this.listings.ids(Listings.subjectComments(req.id))]);
    const docs = await this.comments.byIds(ids.slice(req.start, req.start + req.count));
    const comments = docs.map((d) => commentForOutput(d.comment));
    return { start: req.start, count: comments.length, total: ids.length, subject: simpleSubjectForTier(view.simple, req.caller.tier), comments };
  }

  private async view(id: string): Promise<SubjectViewDocument> {
    const view = await this.views.byId(id);
    if (!view) throw new ApiError('uri_not_found', `no movie subject ${id}`);
    return view;
  }
}
