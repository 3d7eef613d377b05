import { Module } from '@nestjs/common';
import { BookAnnotationsController } from './annotations.controller';
import { BookRecordsController } from './books.controller';
import { BookCollectionsController } from './collections.controller';
import { BookReviewsController } from './reviews.controller';

/** The HTTP face of the book area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [BookRecordsController, BookCollectionsController, BookAnnotationsController, BookReviewsController] })
export class BookAreaModule {}
