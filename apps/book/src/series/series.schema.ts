import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A book series (import kind `series`); books name it in their `series` field. */
@Schema({ collection: 'series', versionKey: false })
export class SeriesDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) title!: string;
}

export const SeriesSchema = SchemaFactory.createForClass(SeriesDocument);
