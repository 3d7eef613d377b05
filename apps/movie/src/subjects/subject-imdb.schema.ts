import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * `GET /v2/movie/imdb/:imdb`: which subject holds an IMDb id, one document per id (`_id` is the
 * IMDb id), so the lookup is a findById on both engines and the id's uniqueness is the atomic
 * insert of `_id` (docs/ENGINES.md, point 1).
 */
@Schema({ collection: 'subject_imdb', versionKey: false })
export class SubjectImdbDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true }) subject_id!: string;
}

export const SubjectImdbSchema = SchemaFactory.createForClass(SubjectImdbDocument);
