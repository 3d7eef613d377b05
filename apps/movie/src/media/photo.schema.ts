import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MoviePhoto } from '@plaza/contracts';

export type PhotoOwner = 'subject' | 'celebrity';

/** A Photo without the fields that depend on its album (neighbours, position, album size), which are read from the album's listing. */
export type StoredPhoto = Omit<MoviePhoto, 'next_photo' | 'prev_photo' | 'position' | 'photos_count'>;

/**
 * A photo of a subject's or a celebrity's album. Subject and celebrity photos are loaded by
 * different kinds, so `_id` is `<owner>:<photo id>` and one kind never replaces the other's photo.
 */
@Schema({ collection: 'photos', versionKey: false })
export class PhotoDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: String, required: true }) owner!: PhotoOwner;
  @Prop({ type: String, required: true }) owner_id!: string;
  @Prop({ type: Date, required: true }) created!: Date;
  @Prop({ type: Object, required: true }) photo!: StoredPhoto;
}

export const PhotoSchema = SchemaFactory.createForClass(PhotoDocument);
PhotoSchema.index({ owner: 1, owner_id: 1, created: 1 });

export const photoKey = (owner: PhotoOwner, id: string) => `${owner}:${id}`;
