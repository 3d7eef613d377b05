import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { UsersDirectory } from '@plaza/platform';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiError, Caller, erasureMessage, ErasureRequest, ErasureResponse } from '@plaza/contracts';
import type { Connection } from 'mongoose';
import { CommentsService } from '../comments/comments.service';
import { LikesService } from '../likes/likes.service';
import { NotesService } from '../notes/notes.service';

/**
 * `note.v1.erasure.run`, asked by identity when an account is deleted (docs/api/account.md). The
 * user's notes go as a DELETE by their owner does (with their pictures, and the likes and comments
 * others left on them), then the comments they wrote on others' notes and their likes, each with
 * the note's counter, under the note's repair-journal entry. Idempotent: a second run finds nothing.
 */
@Controller()
export class NoteErasureController {
  constructor(
    private readonly directory: UsersDirectory,
    @InjectConnection() private readonly connection: Connection,
    private readonly notes: NotesService,
    private readonly comments: CommentsService,
    private readonly likes: LikesService,
  ) {}

  @MessagePattern(erasureMessage('note').subject)
  async erase(@Payload() req: ErasureRequest): Promise<ErasureResponse> {
    // the user is gone from identity: no page shows them from this instance's directory cache any longer
    this.directory.clear();
    const userId = req.user_id;
    // the owner's own caller: the services' checks then allow exactly what the user could do
    const caller: Caller = { userId, tier: 'basic' };
    const erased = { notes: 0, note_comments: 0, note_likes: 0 };
    const ids = async (collection: string, filter: object, field = '_id') =>
      (await this.connection.collection(collection).find(filter, { projection: { [field]: 1, note_id: 1 } }).toArray()) as unknown as Array<{ _id: string; note_id: string }>;

    for (const note of await ids('notes', { author_id: userId })) {
      await ignoreGone(() => this.notes.delete({ id: String(note._id), caller }));
      erased.notes++;
    }
    for (const comment of await ids('note_comments', { author_id: userId })) {
      await ignoreGone(() => this.comments.delete({ id: comment.note_id, commentId: String(comment._id), caller }));
      erased.note_comments++;
    }
    for (const like of await ids('note_likes', { user_id: userId })) {
      if (await this.likes.eraseLike(like.note_id, userId)) erased.note_likes++;
    }
    return { erased };
  }
}

/** A record a concurrent delete removed first is erased already. */
async function ignoreGone(erase: () => Promise<unknown>): Promise<void> {
  try {
    await erase();
  } catch (err) {
    if (err instanceof ApiError && err.code === 1006) return;
    throw err;
  }
}
