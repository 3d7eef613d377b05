import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** isbn10 and isbn13 → book id, so an ISBN lookup is by `_id` too (FerretDB pushes down only `_id`). */
@Schema({ collection: 'book_isbns', versionKey: false })
export class IsbnDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) book_id!: string;
}

export const IsbnSchema = SchemaFactory.createForClass(IsbnDocument);

/** ISBNs are compared without hyphens or blanks, with an upper-case check digit X. */
export function normalizeIsbn(isbn: string): string {
  return isbn.replace(/[\s-]/g, '').toUpperCase();
}
