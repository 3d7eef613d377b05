import { Inject, Injectable } from '@nestjs/common';
import { ApiError, CreateNoteCommentRequest, envelope, NoteComment, NoteCommentList, NoteCommentRequest, NoteCommentsRequest } from '@plaza/contracts';
import { Clock, CLOCK } from '@plaza/platform';
import { Sequences } from '@plaza/service-kit';
import { cleanText } from '../markup/note-markup';
import { NoteAccess, viewerOf } from '../notes/note-access';
import { NoteViews } from '../notes/note-views';
import { NoteCounterWriter } from '../notes/note-counters';
import { NoteRepair } from '../recovery/note-repair';
import { CommentsRepository, StoredComment } from './comments.repository';

/**
 * Comments on notes (docs/api/note.md). Whoever may see a note may read and, while
 * can_reply holds, write its comments; the comment's author or the note's owner may delete one.
 * comments_count follows each insert and delete, which run under the note's lock
 * (NoteCounterWriter); a crash between the two cannot leave comments_count off
 * (NoteRepair.counterWrite).
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly counters: NoteCounterWriter,
    private readonly comments: CommentsRepository,
    private readonly access: NoteAccess,
    private readonly views: NoteViews,
    private readonly sequences: Sequences,
    private readonly repair: NoteRepair,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(req: NoteCommentsRequest): Promise<NoteCommentList> {
    const note = await this.access.readable(req.id, viewerOf(req.caller));
    const { total, comments } = await this.comments.listForNote(note._id, req.page.start, req.page.count);
    return envelope('comments', req.page.start, total, await this.views.comments(comments));
  }

  async create(req: CreateNoteCommentRequest): Promise<NoteComment> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.readable(req.id, viewer);
    if (!note.can_reply) throw closed();
    const comment: StoredComment = {
      _id: String(await this.sequences.next('note_comment')),
      note_id: note._id,
      author_id: viewer,
      content: cleanText(req.comment.content),
      created: this.clock.now(),
    };
    await this.repair.counterWrite(note._id, async () => {
      // under the note's lock: it stands only if the note still takes comments then
      const { note: after } = await this.counters.change(note._id, 'comments_count', async (current) => {
        if (!current.can_reply) throw closed();
        await this.comments.insert(comment);
        return 1;
      });
      if (!after) throw new ApiError('target_not_found', `no note ${note._id}`);
    });
    return this.views.comment(comment);
  }

  async get(req: NoteCommentRequest): Promise<NoteComment> {
    const note = await this.access.readable(req.id, viewerOf(req.caller));
    return this.views.comment(await this.commentOf(note._id, req.commentId));
  }

  async delete(req: NoteCommentRequest): Promise<Record<string, never>> {
    const viewer = viewerOf(req.caller);
    const note = await this.access.existing(req.id);
    const comment = await this.commentOf(note._id, req.commentId);
    if (viewer !== comment.author_id && viewer !== note.author_id) {
      throw new ApiError('need_permission', "only the comment's author or the note's owner may delete it");
    }
    // of two racing deletes only one removes the comment, and only that one recounts
    await this.repair.counterWrite(note._id, async () => {
      await this.counters.change(note._id, 'comments_count', async () => ((await this.comments.delete(comment._id)) ? -1 : 0));
    });
    return {};
  }

  /** A comment of this note; one of another note is as missing as no comment (400/1006). */
  private async commentOf(noteId: string, commentId: string): Promise<StoredComment> {
    const comment = await this.comments.byId(commentId);
    if (!comment || comment.note_id !== noteId) throw new ApiError('target_not_found', `no comment ${commentId} on note ${noteId}`);
    return comment;
  }
}

const closed = () => new ApiError('need_permission', 'the note does not take comments');
