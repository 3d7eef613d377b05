import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredCelebrityRecord } from './celebrity.render';

/** A celebrity as loaded: the source of its view. */
@Schema({ collection: 'celebrities', versionKey: false })
export class CelebrityDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: Object, required: true }) record!: StoredCelebrityRecord;
}

export const CelebritySchema = SchemaFactory.createForClass(CelebrityDocument);
