import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PictureFormat } from '@plaza/contracts';
import { Schema as MongooseSchema } from 'mongoose';

/** A picture of an annotation, by its number in the annotation. */
export interface StoredPhoto {
  key: string;
  format: PictureFormat;
  width: number;
  height: number;
}

/** A reading annotation (book note). `_id` is its id (digits). */
@Schema({ collection: 'annotations', versionKey: false, minimize: false })
export class AnnotationDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** The id as a number, for ordering. */
  @Prop({ required: true }) seq!: number;
  @Prop({ required: true }) book_id!: string;
  @Prop({ required: true }) author_id!: string;
  /** Placed by page or by chapter, never both. */
  @Prop({ type: Number }) page_no?: number;
  @Prop({ default: '' }) chapter!: string;
  /** `order=page`: the page, with chapter-placed annotations after every page. */
  @Prop({ required: true }) page_order!: number;
  @Prop({ default: false }) private!: boolean;
  /** As the author wrote it, picture references (`<图片2>`) included. */
  @Prop({ required: true }) content!: string;
  /** Picture number → picture; pictures stay here when the content stops referring to them. */
  @Prop({ type: MongooseSchema.Types.Mixed, default: () => ({}) }) photos!: Record<string, StoredPhoto>;
  @Prop({ default: 0 }) last_photo!: number;
  @Prop({ default: 0 }) comments_count!: number;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ type: Date, required: true }) updated!: Date;
}

export const AnnotationSchema = SchemaFactory.createForClass(AnnotationDocument);
// one index per list order, so MongoDB reads a page in order instead of sorting a book's annotations
AnnotationSchema.index({ book_id: 1, private: 1, created: -1, seq: -1 });
AnnotationSchema.index({ book_id: 1, private: 1, comments_count: -1, created: -1, seq: -1 });
AnnotationSchema.index({ book_id: 1, private: 1, page_order: 1, seq: 1 });
AnnotationSchema.index({ author_id: 1, updated: -1, seq: -1 });

/** Placed by chapter only: after every page in page order. */
export const CHAPTER_PAGE_ORDER = 1_000_000;
