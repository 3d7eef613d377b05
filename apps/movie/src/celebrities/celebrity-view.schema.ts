import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MovieCelebrity, MoviePhoto, SimpleCelebrity } from '@plaza/contracts';
import { StoredWork } from './celebrity.render';

/**
 * Everything the celebrity endpoints need, precomputed at import: the celebrity as the advance
 * tier sees it (null until its record is loaded: subjects may credit a celebrity first), every
 * work with its roles (derived from the subjects' directors, writers and casts), and the first
 * photos of its album.
 */
@Schema({ collection: 'celebrity_views', versionKey: false })
export class CelebrityViewDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: Object, default: null }) celebrity!: MovieCelebrity | null;
  @Prop({ type: Object, default: null }) simple!: SimpleCelebrity | null;
  /** All works, newest first. */
  @Prop({ type: [Object], default: [] }) works!: StoredWork[];
  @Prop({ type: [Object], default: [] }) photos!: MoviePhoto[];
  @Prop({ default: 0 }) photos_total!: number;
  /** Raised by every change: on MongoDB a change applies only to the version it was computed from. */
  @Prop({ type: Number }) rev?: number;
}

export const CelebrityViewSchema = SchemaFactory.createForClass(CelebrityViewDocument);
