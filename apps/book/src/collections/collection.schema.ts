import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CollectionStatus } from '@plaza/contracts';

/**
 * A user's collection entry for a book. `_id` is `<user id>:<book id>`: the unique `_id` makes
 * "one entry per user and book" an atomic insert on FerretDB and MongoDB alike, and the lookup
 * for `current_user_collection` a read by `_id`.
 */
@Schema({ collection: 'collections', versionKey: false })
export class CollectionDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** The public numeric id (docs/api/book.md, "Resources": `id` int). */
  @Prop({ required: true }) id!: number;
  @Prop({ required: true }) user_id!: string;
  @Prop({ required: true }) book_id!: string;
  @Prop({ type: String, required: true }) status!: CollectionStatus;
  @Prop({ type: [String], default: [] }) tags!: string[];
  @Prop({ default: '' }) comment!: string;
  /** 1 to 5; absent when the entry is unrated. */
  @Prop({ type: Number }) rating?: number;
  @Prop({ default: false }) private!: boolean;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ type: Date, required: true }) updated!: Date;
  /** Raised by every replace: on MongoDB a replace or delete applies only to the version it read (absent: 0). */
  @Prop({ type: Number }) rev?: number;
}

export const CollectionSchema = SchemaFactory.createForClass(CollectionDocument);
// a user's list, newest change first: the index gives the order, so MongoDB never sorts in memory
CollectionSchema.index({ user_id: 1, updated: -1, id: -1 });
CollectionSchema.index({ book_id: 1 });
// an import's check that a record's id is not another entry's (CollectionsRepository.keyWithId)
CollectionSchema.index({ id: 1 });

export const collectionKey = (userId: string, bookId: string) => `${userId}:${bookId}`;
