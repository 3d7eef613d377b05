import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { EventCategory } from '@plaza/contracts';

/**
 * An event. `_id` is the numeric id. Counters are kept on the document as counts of their
 * sources, recounted after every change (EventsRepository.recount); who takes part or is
 * interested lives in their own collections, one document per (event, user).
 */
@Schema({ collection: 'events', versionKey: false })
export class EventDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) title!: string;
  @Prop({ default: '' }) content!: string;
  /** Addresses only when imported; otherwise derived from PUBLIC_WEB_URL when shown. */
  @Prop() image?: string;
  @Prop() image_hlarge?: string;
  @Prop() image_lmobile?: string;
  @Prop() alt?: string;
  @Prop() adapt_url?: string;
  @Prop({ type: Date, required: true }) begin!: Date;
  @Prop({ type: Date, required: true }) end!: Date;
  @Prop({ required: true }) owner_id!: string;
  /** `"<lat> <lng>"` or empty. */
  @Prop({ default: '' }) geo!: string;
  @Prop({ default: '' }) address!: string;
  @Prop({ required: true }) loc_id!: string;
  @Prop({ default: '' }) album!: string;
  @Prop({ default: false }) is_priv!: boolean;
  @Prop({ default: false }) has_invited!: boolean;
  @Prop({ default: false }) can_invite!: boolean;
  @Prop({ type: String, required: true }) category!: EventCategory;
  @Prop({ default: 0 }) participant_count!: number;
  @Prop({ default: 0 }) wisher_count!: number;
  /** Raised by every counter write: on MongoDB a recount is a compare-and-swap on it. */
  @Prop() counts_v?: number;
}

export const EventSchema = SchemaFactory.createForClass(EventDocument);
// for MongoDB (FerretDB v1 scans anyway): the city list by window, and a user's own events
// a city's events soonest first (the window's bounds filter the scan); a user's own events latest first
EventSchema.index({ loc_id: 1, begin: 1, _id: 1 });
EventSchema.index({ owner_id: 1, begin: -1, _id: -1 });
