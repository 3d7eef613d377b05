import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A book's place among the books of one of its tags, for `tag=` searches on MongoDB: one document
 * per book and tag (`_id` `<book id>|<tag key>`), `rank` from bookTagRanks (the tag's count, then
 * the id). MongoDB cannot order a multikey field by a per-element score, so the order lives here,
 * written after each change of the book (BookTagRanksRepository.sync). A tag the book no longer
 * has stays as `live: false` with the book's revision, so a late write of an older revision can
 * never bring it back. Not kept on the local engine, whose search index holds the same ranks.
 */
@Schema({ collection: 'book_tag_ranks', versionKey: false })
export class BookTagRankDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) book_id!: string;
  @Prop({ required: true }) tag!: string;
  @Prop({ required: true }) rank!: string;
  @Prop({ required: true }) live!: boolean;
  /** The book's `rev` this was computed from: an older one never overwrites it. */
  @Prop({ required: true }) rev!: number;
}

export const BookTagRankSchema = SchemaFactory.createForClass(BookTagRankDocument);
// a tag's books in order: equality on tag and live, then the rank (common/indexes.spec.ts)
BookTagRankSchema.index({ tag: 1, live: 1, rank: 1 });
// a book's documents, for their repair and reconciliation (BookTagRanksRepository.resync)
BookTagRankSchema.index({ book_id: 1 });

export const bookTagRankId = (bookId: string, tag: string) => `${bookId}|${tag}`;
