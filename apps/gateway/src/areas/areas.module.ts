import { Module } from '@nestjs/common';
import { BookAreaModule } from './book/book-area.module';
import { ChangesAreaModule } from './changes/changes-area.module';
import { EventAreaModule } from './event/event-area.module';
import { MovieAreaModule } from './movie/movie-area.module';
import { NoteAreaModule } from './note/note-area.module';
import { UserAreaModule } from './user/user-area.module';

/** The HTTP face of each area: thin controllers that validate input and forward over NATS. */
@Module({ imports: [BookAreaModule, MovieAreaModule, NoteAreaModule, EventAreaModule, UserAreaModule, ChangesAreaModule] })
export class AreasModule {}
