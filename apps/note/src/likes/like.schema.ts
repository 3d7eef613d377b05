import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { NotePrivacies, NotePrivacy } from '@plaza/contracts';

/**
 * One user's like of one note. `_id` is `<noteId>:<userId>`: inserting it is atomic on both
 * engines, so liking twice (or two racing requests) stores one like.
 *
 * `note_author_id` and `note_privacy` copy the note's, so a user's liked notes can be listed,
 * counted and paged by what the viewer may see in one query; they change with the note's privacy
 * under the note's lock (NotesService.update).
 */
@Schema({ collection: 'note_likes', versionKey: false })
export class NoteLikeDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) note_id!: string;
  @Prop({ required: true }) user_id!: string;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ required: true }) note_author_id!: string;
  @Prop({ type: String, required: true, enum: NotePrivacies }) note_privacy!: NotePrivacy;
}

export const NoteLikeSchema = SchemaFactory.createForClass(NoteLikeDocument);
// GET /v2/note/user_liked/:id, newest like first
NoteLikeSchema.index({ user_id: 1, created: -1, _id: -1 });
// a note's likes: removed with the note, privacy copies updated with it
NoteLikeSchema.index({ note_id: 1 });

export const likeId = (noteId: string, userId: string) => `${noteId}:${userId}`;
