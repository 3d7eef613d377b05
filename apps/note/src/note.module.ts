import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { DatabaseEngine, sequencesProvider } from '@plaza/service-kit';
import { NoteErasureController } from './erasure/note-erasure.controller';
import { NoteCommentDocument, NoteCommentSchema } from './comments/comment.schema';
import { CommentsController } from './comments/comments.controller';
import { CommentsRepository } from './comments/comments.repository';
import { CommentsService } from './comments/comments.service';
import { NoteImportController } from './import/note-import.controller';
import { NoteImporter } from './import/note-importer';
import { NoteLikeDocument, NoteLikeSchema } from './likes/like.schema';
import { LikesRepository } from './likes/likes.repository';
import { LikesService } from './likes/likes.service';
import { NoteLocalEngine } from './notes/local-engine';
import { NoteAccess } from './notes/note-access';
import { NoteCounterWriter } from './notes/note-counters';
import { NoteViews } from './notes/note-views';
import { NoteDocument, NoteSchema } from './notes/note.schema';
import { NotesController } from './notes/notes.controller';
import { NotesRepository } from './notes/notes.repository';
import { NotesService } from './notes/notes.service';
import { NotePictures } from './pictures/note-pictures';
import { NoteRepair } from './recovery/note-repair';
import { NoteReconcileController } from './recovery/reconcile.controller';
import { NoteExportController } from './export/note-export.controller';

/**
 * The note service: notes, likes and comments, each collection with its repository; pictures via
 * libs/pictures; the repair journal of its multi-document writes (recovery/).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: NoteDocument.name, schema: NoteSchema },
      { name: NoteLikeDocument.name, schema: NoteLikeSchema },
      { name: NoteCommentDocument.name, schema: NoteCommentSchema },
    ]),
  ],
  controllers: [NotesController, CommentsController, NoteReconcileController, NoteErasureController, NoteImportController, NoteExportController],
  providers: [
    NotesRepository,
    NoteLocalEngine,
    LikesRepository,
    CommentsRepository,
    NoteAccess,
    NoteCounterWriter,
    NoteRepair,
    DatabaseEngine,
    NoteViews,
    NotePictures,
    NotesService,
    LikesService,
    CommentsService,
    NoteImporter,
    // numeric ids of notes and comments
    sequencesProvider,
  ],
})
export class NoteModule {}
