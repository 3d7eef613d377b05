import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { EventCategory } from '@plaza/contracts';

/**
 * What `GET /v2/event/search` filters on, one document per event (`_id` its id), written with the
 * event: its search terms and the list's filters. Kept apart from `events` so the terms (hundreds
 * per event) do not weigh on the scans of the event lists on the local engine, whose cost follows
 * the number of values in each document (docs/ENGINES.md, point 2).
 */
@Schema({ collection: 'event_search', versionKey: false })
export class EventSearchDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ type: [String], default: [] }) search_terms!: string[];
  @Prop({ default: false }) is_priv!: boolean;
  @Prop({ type: Date, required: true }) begin!: Date;
  @Prop({ type: Date, required: true }) end!: Date;
  @Prop({ required: true }) loc_id!: string;
  @Prop({ type: String, required: true }) category!: EventCategory;
}

export const EventSearchSchema = SchemaFactory.createForClass(EventSearchDocument);
// for MongoDB: every term of q is a point of the multikey index, public events only, soonest first;
// the window's end, the city and the type are filtered during that walk
EventSearchSchema.index({ search_terms: 1, is_priv: 1, begin: 1, _id: 1 });
