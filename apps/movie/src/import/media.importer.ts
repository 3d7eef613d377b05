import { Inject, Injectable } from '@nestjs/common';
import { MovieComment, MovieReview, SimpleUser } from '@plaza/contracts';
import { APP_CONFIG, formatTimestamp, importTime } from '@plaza/platform';
import { CelebritiesRepository } from '../celebrities/celebrities.repository';
import { MovieConfig } from '../config/movie.config';
import { CommentsRepository } from '../media/comments.repository';
import { Listings } from '../media/listing.schema';
import { PhotoOwner, photoKey, StoredPhoto } from '../media/photo.schema';
import { PhotosRepository } from '../media/photos.repository';
import { ReviewsRepository } from '../media/reviews.repository';
import { MovieLinks } from '../common/links';
import { userRating } from '../common/ratings';
import { albumKey, newestKey, popularKey } from '../common/sort-keys';
import { SubjectsRepository } from '../subjects/subjects.repository';
import { ImportSession } from './import-session';
import { AuthorInput, CelebrityPhotoRecord, MovieCommentRecord, MoviePhotoRecord, MovieReviewRecord } from './movie-import.records';

/** The user a record names: `author_id`, else `author.id`, else `author.uid`. */
export function authorRef(record: { author_id?: unknown; author?: unknown }): string | undefined {
  if (typeof record.author_id === 'string') return record.author_id;
  const author = record.author as Partial<AuthorInput> | undefined;
  if (author && typeof author === 'object') return typeof author.id === 'string' ? author.id : typeof author.uid === 'string' ? author.uid : undefined;
  return undefined;
}

/**
 * Photos, reviews and short comments. Each names a loaded subject (or celebrity) and an author
 * identity knows; either missing fails the line. Each joins its owner's ordered listing, from
 * which pages and the owner's derived parts are built.
 */
@Injectable()
export class MediaImporter {
  constructor(
    private readonly subjects: SubjectsRepository,
    private readonly celebrities: CelebritiesRepository,
    private readonly photos: PhotosRepository,
    private readonly reviews: ReviewsRepository,
    private readonly comments: CommentsRepository,
    @Inject(MovieLinks) private readonly links: MovieLinks,
    @Inject(APP_CONFIG) private readonly config: MovieConfig,
  ) {}

  async subjectPhoto(r: MoviePhotoRecord, session: ImportSession): Promise<void> {
    const title = await this.subjectTitle(r.subject_id, session);
    await this.photo('subject', r.subject_id, r, `${title}的剧照`, this.links.subjectAlbum(r.subject_id), session);
  }

  async celebrityPhoto(r: CelebrityPhotoRecord, session: ImportSession): Promise<void> {
    const name = await session.once(`celebrity:${r.celebrity_id}`, async () => (await this.celebrities.byId(r.celebrity_id))?.record.name);
    if (name === undefined) throw new Error(`no celebrity ${r.celebrity_id}`);
    await this.photo('celebrity', r.celebrity_id, r, `${name}的照片`, this.links.celebrityAlbum(r.celebrity_id), session);
  }

  async review(r: MovieReviewRecord, session: ImportSession): Promise<void> {
    await this.subjectTitle(r.subject_id, session);
    const author = this.author(r, session);
    const created = this.time(r.created_at, 'created_at');
    const updated = r.updated_at ? this.time(r.updated_at, 'updated_at') : created;
    const review: MovieReview = {
      id: r.id,
      title: r.title,
      alt: r.alt ?? this.links.reviewAlt(r.id),
      created_at: this.format(created),
      updated_at: this.format(updated),
      subject_id: r.subject_id,
      author,
      summary: r.summary ?? r.content ?? '',
      rating: userRating(r.rating?.value),
      useful_count: r.useful_count ?? 0,
      useless_count: r.useless_count ?? 0,
      comments_count: r.comments_count ?? 0,
    };
    await session.records.run(`review:${r.id}`, async () => {
      const { previous } = await this.reviews.put({ _id: r.id, subject_id: r.subject_id, created, review });
      this.place(session, Listings.subjectReviews, session.refresh.subjectReviews, r.subject_id, previous?.subject_id, r.id, popularKey(review.useful_count, created, r.id));
    });
  }

  async comment(r: MovieCommentRecord, session: ImportSession): Promise<void> {
    await this.subjectTitle(r.subject_id, session);
    const author = this.author(r, session);
    const created = this.time(r.created_at, 'created_at');
    const comment: MovieComment = {
      id: r.id,
      created_at: this.format(created),
      subject_id: r.subject_id,
      author,
      content: r.content,
      rating: userRating(r.rating?.value),
      useful_count: r.useful_count ?? 0,
    };
    await session.records.run(`comment:${r.id}`, async () => {
      const { previous } = await this.comments.put({ _id: r.id, subject_id: r.subject_id, created, comment });
      this.place(session, Listings.subjectComments, session.refresh.subjectComments, r.subject_id, previous?.subject_id, r.id, newestKey(created, r.id));
    });
  }

  private async photo(
    owner: PhotoOwner,
    ownerId: string,
    r: MoviePhotoRecord | CelebrityPhotoRecord,
    defaultAlbumTitle: string,
    defaultAlbumUrl: string,
    session: ImportSession,
  ): Promise<void> {
    const author = this.author(r, session);
    const created = this.time(r.created_at, 'created_at');
    const photo: StoredPhoto = {
      id: r.id,
      subject_id: ownerId,
      alt: r.alt ?? this.links.photoAlt(r.id),
      icon: r.icon ?? this.links.photoPicture('icon', r.id),
      image: r.image ?? this.links.photoPicture('image', r.id),
      thumb: r.thumb ?? this.links.photoPicture('thumb', r.id),
      cover: r.cover ?? this.links.photoPicture('cover', r.id),
      created_at: this.format(created),
      desc: r.desc ?? '',
      author,
      album_id: r.album_id ?? ownerId,
      album_title: r.album_title ?? defaultAlbumTitle,
      album_url: r.album_url ?? defaultAlbumUrl,
      comments_count: r.comments_count ?? 0,
    };
    const [listing, refresh] = owner === 'subject'
      ? [Listings.subjectPhotos, session.refresh.subjectPhotos]
      : [Listings.celebrityPhotos, session.refresh.celebrityPhotos];
    await session.records.run(`photo:${photoKey(owner, r.id)}`, async () => {
      const { previous } = await this.photos.put({ _id: photoKey(owner, r.id), owner, owner_id: ownerId, created, photo });
      this.place(session, listing, refresh, ownerId, previous?.owner_id, r.id, albumKey(created, r.id));
    });
  }

  /** Puts the record in its owner's listing (out of the previous owner's, if it moved) and marks both for a rebuild. */
  private place(session: ImportSession, listing: (owner: string) => string, refresh: Set<string>, owner: string, previousOwner: string | undefined, id: string, key: string): void {
    if (previousOwner !== undefined && previousOwner !== owner) {
      session.listingRemove(listing(previousOwner), id);
      refresh.add(previousOwner);
    }
    session.listingPut(listing(owner), id, key);
    refresh.add(owner);
  }

  private async subjectTitle(subjectId: string, session: ImportSession): Promise<string> {
    const title = await session.once(`subject:${subjectId}`, async () => (await this.subjects.byId(subjectId))?.record.title);
    if (title === undefined) throw new Error(`no movie subject ${subjectId}`);
    return title;
  }

  private author(record: { author_id?: string; author?: AuthorInput }, session: ImportSession): SimpleUser {
    const ref = authorRef(record);
    const user = ref === undefined ? undefined : session.authors.get(ref);
    if (!user) throw new Error(`unknown author ${ref ?? ''}`.trim());
    return user;
  }

  private time(text: string, field: string): Date {
    return importTime(text, field, this.config.SERVICE_TIMEZONE);
  }

  private format(date: Date): string {
    return formatTimestamp(date, this.config.SERVICE_TIMEZONE);
  }
}
