import { Injectable } from '@nestjs/common';
import { ApiError, CelebrityPageRequest, CelebrityPhotosPage, CelebrityWorksPage, MovieCelebrity, MovieTier, SimpleCelebrity } from '@plaza/contracts';
import { Listings } from '../media/listing.schema';
import { ListingsRepository } from '../media/listings.repository';
import { albumPage } from '../media/media.render';
import { PhotosRepository } from '../media/photos.repository';
import { Caps } from '../common/caps';
import { celebrityForTier, withSubjectForTier } from '../common/tiers';
import { CelebrityViewDocument } from './celebrity-view.schema';
import { CelebrityViewsRepository } from './celebrity-views.repository';

/** A view whose celebrity record is loaded. */
type LoadedView = CelebrityViewDocument & { celebrity: MovieCelebrity; simple: SimpleCelebrity };

/** Reads of a celebrity, its works (with roles) and its photos. */
@Injectable()
export class CelebritiesService {
  constructor(
    private readonly views: CelebrityViewsRepository,
    private readonly listings: ListingsRepository,
    private readonly photos: PhotosRepository,
  ) {}

  async celebrity(id: string, tier: MovieTier): Promise<MovieCelebrity> {
    const view = await this.view(id);
    const celebrity: MovieCelebrity = {
      ...view.celebrity,
      photos: view.photos,
      works: view.works.slice(0, Caps.celebrityWorks).map((w) => w.subject),
    };
    return celebrityForTier(celebrity, tier);
  }

  /** Newest first; each work with the celebrity's roles in it (导演, 编剧, 演员). */
  async workPage(req: CelebrityPageRequest): Promise<CelebrityWorksPage> {
    const view = await this.view(req.id);
    const works = view.works
      .slice(req.start, req.start + req.count)
      .map((w) => withSubjectForTier({ roles: w.roles, subject: w.subject }, req.caller.tier));
    return { start: req.start, count: works.length, total: view.works.length, celebrity: view.simple, works };
  }

  async photoPage(req: CelebrityPageRequest): Promise<CelebrityPhotosPage> {
    const [view, album] = await Promise.all([this.view(req.id), this.listings.ids(Listings.celebrityPhotos(req.id))]);
    const docs = await this.photos.byIds('celebrity', album.slice(req.start, req.start + req.count));
    const photos = albumPage(docs, album, req.start);
    return { start: req.start, count: photos.length, total: album.length, celebrity: view.simple, photos };
  }

  /** A celebrity exists once its record is loaded (subjects may credit it before). */
  private async view(id: string): Promise<LoadedView> {
    const view = await this.views.byId(id);
    if (!view?.celebrity || !view.simple) throw new ApiError('uri_not_found', `no celebrity ${id}`);
    return view as LoadedView;
  }
}
