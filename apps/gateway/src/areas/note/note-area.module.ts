import { Module } from '@nestjs/common';
import { NoteCommentsController } from './note-comments.controller';
import { NotesController } from './notes.controller';

/** The HTTP face of the note area: thin controllers that validate input and forward over NATS. */
@Module({ controllers: [NotesController, NoteCommentsController] })
export class NoteAreaModule {}
