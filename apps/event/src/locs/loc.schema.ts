import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A city or a region (`habitable` no). `_id` is the numeric id, so the hot lookup is by `_id`. */
@Schema({ collection: 'locs', versionKey: false })
export class LocDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) uid!: string;
  @Prop({ required: true }) name!: string;
  /** uid of the parent region; empty for a top-level region. */
  @Prop({ default: '' }) parent!: string;
  @Prop({ required: true }) habitable!: boolean;
  /** The id as a number: the list is ordered by it (string order would put 9 after 10). */
  @Prop({ required: true }) order!: number;
}

export const LocSchema = SchemaFactory.createForClass(LocDocument);
LocSchema.index({ order: 1 });

/**
 * `uid:<uid>` and `name:<name>` → loc id, so resolving `beijing` or `北京` is an `_id` lookup too
 * (FerretDB pushes down only `_id` equality).
 */
@Schema({ collection: 'loc_refs', versionKey: false })
export class LocRefDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) loc_id!: string;
}

export const LocRefSchema = SchemaFactory.createForClass(LocRefDocument);
