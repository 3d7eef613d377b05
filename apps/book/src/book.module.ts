import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AnnotationDocument, AnnotationSchema } from './annotations/annotation.schema';
import { AnnotationsController } from './annotations/annotations.controller';
import { AnnotationsRepository } from './annotations/annotations.repository';
import { AnnotationsService } from './annotations/annotations.service';
import { BookDocument, BookSchema } from './books/book.schema';
import { BookTagRankDocument, BookTagRankSchema } from './books/book-tag-rank.schema';
import { BookTagRanksRepository } from './books/book-tag-ranks.repository';
import { BooksController } from './books/books.controller';
import { BooksRepository } from './books/books.repository';
import { BooksService } from './books/books.service';
import { IsbnDocument, IsbnSchema } from './books/isbn.schema';
import { IsbnsRepository } from './books/isbns.repository';
import { BookLocalEngine } from './books/local-engine';
import { CollectionDocument, CollectionSchema } from './collections/collection.schema';
import { CollectionsController } from './collections/collections.controller';
import { CollectionsRepository } from './collections/collections.repository';
import { CollectionsService } from './collections/collections.service';
import { UserTagCountDocument, UserTagCountSchema } from './collections/user-tag-count.schema';
import { UserTagCountsRepository } from './collections/user-tag-counts.repository';
import { BookErasureController } from './erasure/book-erasure.controller';
import { BookImportController } from './import/book-import.controller';
import { BookImporter } from './import/book-importer';
import { ReviewDocument, ReviewSchema } from './reviews/review.schema';
import { ReviewsController } from './reviews/reviews.controller';
import { ReviewsRepository } from './reviews/reviews.repository';
import { ReviewsService } from './reviews/reviews.service';
import { BookAggregateJournal } from './reviews/book-aggregate-journal';
import { UserContentImporter } from './import/user-content.importer';
import { SeriesDocument, SeriesSchema } from './series/series.schema';
import { SeriesRepository } from './series/series.repository';
import { changeFeedProviders, DatabaseEngine, sequencesProvider } from '@plaza/service-kit';
import { AnnotationPictureUrls, pictureProviders, StagedPictureSweeper } from './common/pictures';
import { BookExportController } from './export/book-export.controller';

/** The book service: its collections, message handlers and import. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: BookDocument.name, schema: BookSchema },
      { name: IsbnDocument.name, schema: IsbnSchema },
      { name: SeriesDocument.name, schema: SeriesSchema },
      { name: CollectionDocument.name, schema: CollectionSchema },
      { name: AnnotationDocument.name, schema: AnnotationSchema },
      { name: ReviewDocument.name, schema: ReviewSchema },
      { name: BookTagRankDocument.name, schema: BookTagRankSchema },
      { name: UserTagCountDocument.name, schema: UserTagCountSchema },
    ]),
  ],
  controllers: [BooksController, CollectionsController, AnnotationsController, ReviewsController, BookImportController, BookErasureController, BookExportController],
  providers: [
    BooksRepository, IsbnsRepository, SeriesRepository, CollectionsRepository, AnnotationsRepository, ReviewsRepository,
    // what differs by engine: the local engine's read models (docs/ENGINES.md), the MongoDB branch's derived collections
    BookLocalEngine, BookTagRanksRepository, UserTagCountsRepository,
    BooksService, CollectionsService, AnnotationsService, ReviewsService, BookAggregateJournal, BookImporter, UserContentImporter,
    ...pictureProviders, AnnotationPictureUrls, StagedPictureSweeper, DatabaseEngine,
    // numeric ids of entries, reviews and annotations: one instance, shared by the creates and the imports
    sequencesProvider,
    // the catalogue's change feed (docs/api/changes.md)
    ...changeFeedProviders(),
  ],
})
export class BookModule {}
