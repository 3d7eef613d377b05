import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One document per (event, user) with `_id` `<eventId>:<userId>`: the insert is atomic on both
 * engines, so joining twice is a duplicate key, never a second participation.
 */
@Schema({ collection: 'event_participants', versionKey: false })
export class ParticipantDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) event_id!: string;
  @Prop({ required: true }) user_id!: string;
  /** `yyyy-MM-dd` the user chose; absent while undecided. */
  @Prop() participate_date?: string;
  @Prop({ type: Date, required: true }) created!: Date;
}

export const ParticipantSchema = SchemaFactory.createForClass(ParticipantDocument);
// an event's users and a user's events, each the latest first (the lists' order on MongoDB)
ParticipantSchema.index({ event_id: 1, created: -1, _id: 1 });
ParticipantSchema.index({ user_id: 1, created: -1, _id: 1 });

/** Interest in an event: one document per (event, user), like a participation. */
@Schema({ collection: 'event_wishers', versionKey: false })
export class WisherDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) event_id!: string;
  @Prop({ required: true }) user_id!: string;
  @Prop({ type: Date, required: true }) created!: Date;
}

export const WisherSchema = SchemaFactory.createForClass(WisherDocument);
WisherSchema.index({ event_id: 1, created: -1, _id: 1 });
WisherSchema.index({ user_id: 1, created: -1, _id: 1 });
