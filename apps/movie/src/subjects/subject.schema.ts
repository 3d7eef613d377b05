import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SubjectRecord } from './subject.render';

/** A movie or tv subject as loaded: the source every derived view and its search entry are built from. */
@Schema({ collection: 'subjects', versionKey: false })
export class SubjectDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: Object, required: true }) record!: SubjectRecord;
}

export const SubjectSchema = SchemaFactory.createForClass(SubjectDocument);
