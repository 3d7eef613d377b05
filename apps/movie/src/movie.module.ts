import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { APP_CONFIG } from '@plaza/platform';
import { changeFeedProviders, DatabaseEngine } from '@plaza/service-kit';
import { CelebritiesController } from './celebrities/celebrities.controller';
import { CelebritiesRepository } from './celebrities/celebrities.repository';
import { CelebritiesService } from './celebrities/celebrities.service';
import { CelebrityDocument, CelebritySchema } from './celebrities/celebrity.schema';
import { CelebrityViewDocument, CelebrityViewSchema } from './celebrities/celebrity-view.schema';
import { CelebrityViewsRepository } from './celebrities/celebrity-views.repository';
import { MovieConfig } from './config/movie.config';
import { CatalogueImporter } from './import/catalogue.importer';
import { DerivedViews } from './import/derived-views';
import { ListImporter } from './import/list.importer';
import { MediaImporter } from './import/media.importer';
import { MovieImportController } from './import/movie-import.controller';
import { MovieImportService } from './import/movie-import.service';
import { CityResolver } from './lists/city-resolver';
import { ListsController } from './lists/lists.controller';
import { ListsService } from './lists/lists.service';
import { MovieListDocument, MovieListSchema } from './lists/movie-list.schema';
import { MovieListsRepository } from './lists/movie-lists.repository';
import { CommentDocument, CommentSchema } from './media/comment.schema';
import { CommentsRepository } from './media/comments.repository';
import { ListingDocument, ListingSchema } from './media/listing.schema';
import { ListingsRepository } from './media/listings.repository';
import { PhotoDocument, PhotoSchema } from './media/photo.schema';
import { PhotosRepository } from './media/photos.repository';
import { ReviewDocument, ReviewSchema } from './media/review.schema';
import { ReviewsRepository } from './media/reviews.repository';
import { MovieReviewsController } from './media/reviews.controller';
import { MoviePhotosController } from './media/photos.controller';
import { MovieLinks } from './common/links';
import { SearchService } from './subjects/search.service';
import { SubjectDocument, SubjectSchema } from './subjects/subject.schema';
import { SubjectImdbDocument, SubjectImdbSchema } from './subjects/subject-imdb.schema';
import { SubjectImdbRepository } from './subjects/subject-imdb.repository';
import { SubjectSearchDocument, SubjectSearchSchema } from './subjects/subject-search.schema';
import { SubjectSearchRepository } from './subjects/subject-search.repository';
import { SubjectViewDocument, SubjectViewSchema } from './subjects/subject-view.schema';
import { SubjectViewsRepository } from './subjects/subject-views.repository';
import { SubjectsController } from './subjects/subjects.controller';
import { SubjectsRepository } from './subjects/subjects.repository';
import { SubjectsService } from './subjects/subjects.service';

/** The movie service: its collections, message handlers and import. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: SubjectDocument.name, schema: SubjectSchema },
      { name: SubjectSearchDocument.name, schema: SubjectSearchSchema },
      { name: SubjectViewDocument.name, schema: SubjectViewSchema },
      { name: SubjectImdbDocument.name, schema: SubjectImdbSchema },
      { name: CelebrityDocument.name, schema: CelebritySchema },
      { name: CelebrityViewDocument.name, schema: CelebrityViewSchema },
      { name: PhotoDocument.name, schema: PhotoSchema },
      { name: ReviewDocument.name, schema: ReviewSchema },
      { name: CommentDocument.name, schema: CommentSchema },
      { name: ListingDocument.name, schema: ListingSchema },
      { name: MovieListDocument.name, schema: MovieListSchema },
    ]),
  ],
  controllers: [SubjectsController, CelebritiesController, ListsController, MovieImportController, MovieReviewsController, MoviePhotosController],
  providers: [
    { provide: MovieLinks, inject: [APP_CONFIG], useFactory: (config: MovieConfig) => new MovieLinks(config.PUBLIC_WEB_URL) },
    DatabaseEngine, SubjectsRepository, SubjectSearchRepository, SubjectViewsRepository, SubjectImdbRepository, CelebritiesRepository, CelebrityViewsRepository,
    PhotosRepository, ReviewsRepository, CommentsRepository, ListingsRepository, MovieListsRepository,
    SubjectsService, SearchService, CelebritiesService, ListsService, CityResolver,
    CatalogueImporter, MediaImporter, ListImporter, DerivedViews, MovieImportService,
    // the catalogue's change feed (docs/api/changes.md)
    ...changeFeedProviders(),
  ],
})
export class MovieModule {}
