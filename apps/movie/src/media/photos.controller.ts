import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiError, MovieMessages, MoviePhotoRequest, MoviePhotoView } from '@plaza/contracts';
import { CelebrityViewsRepository } from '../celebrities/celebrity-views.repository';
import { SubjectViewsRepository } from '../subjects/subject-views.repository';
import { Listings } from './listing.schema';
import { ListingsRepository } from './listings.repository';
import { photoInAlbum } from './media.render';
import { PhotosRepository } from './photos.repository';

/**
 * One photo by id, for the web page of its `alt` (docs/api/web.md): the address names no owner, so
 * a subject's photo is looked for first, then a celebrity's. The photo has its place in its album,
 * and the album's owner as its Simple Subject or Simple Celebrity.
 */
@Controller()
export class MoviePhotosController {
  constructor(
    private readonly photos: PhotosRepository,
    private readonly listings: ListingsRepository,
    private readonly subjects: SubjectViewsRepository,
    private readonly celebrities: CelebrityViewsRepository,
  ) {}

  @MessagePattern(MovieMessages.getPhoto.subject)
  async get(@Payload() req: MoviePhotoRequest): Promise<MoviePhotoView> {
    const doc = (await this.photos.byId('subject', req.id)) ?? (await this.photos.byId('celebrity', req.id));
    if (!doc) throw new ApiError('uri_not_found', `no movie photo ${req.id}`);
    const inAlbum = (album: string[]) => photoInAlbum(doc.photo, album, Math.max(0, album.indexOf(doc.photo.id)));
    if (doc.owner === 'subject') {
      const [album, view] = await Promise.all([this.listings.ids(Listings.subjectPhotos(doc.owner_id)), this.subjects.byId(doc.owner_id)]);
      return { photo: inAlbum(album), ...(view ? { subject: view.simple } : {}) };
    }
    const [album, view] = await Promise.all([this.listings.ids(Listings.celebrityPhotos(doc.owner_id)), this.celebrities.byId(doc.owner_id)]);
    return { photo: inAlbum(album), ...(view?.simple ? { celebrity: view.simple } : {}) };
  }
}
