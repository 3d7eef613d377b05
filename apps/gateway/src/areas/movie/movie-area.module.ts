import { Module } from '@nestjs/common';
import { MovieCelebritiesController } from './movie-celebrities.controller';
import { MovieListsController } from './movie-lists.controller';
import { MovieSubjectsController } from './movie-subjects.controller';

/** The HTTP face of the movie area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [MovieSubjectsController, MovieCelebritiesController, MovieListsController] })
export class MovieAreaModule {}
