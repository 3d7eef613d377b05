import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A user; `_id` is the numeric id (a string of digits), so the hot lookup is by `_id`. */
@Schema({ collection: 'users', versionKey: false })
export class UserDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true, unique: true }) uid!: string;
  @Prop({ required: true }) name!: string;
  @Prop({ default: '' }) avatar!: string;
  @Prop({ default: '' }) signature!: string;
  @Prop({ default: '' }) alt!: string;
  @Prop({ type: Date, required: true }) created!: Date;
  /** The city the user gave (an event-area loc id and its name), and what they say about themselves. */
  @Prop({ default: '' }) loc_id!: string;
  @Prop({ default: '' }) loc_name!: string;
  @Prop({ default: '' }) desc!: string;
  /** Terms of the name and uid (libs/search), for user search; indexed with `_id`, the search's order. */
  @Prop({ type: [String], default: [] }) search_terms!: string[];
  /** scrypt hash (`scrypt$N$r$p$salt$hash`); absent for users who cannot sign in. */
  @Prop() password_hash?: string;
  @Prop({ type: [String], default: [] }) friend_ids!: string[];
  @Prop({ default: 0 }) failed_logins!: number;
  /** Raised on a password change: tokens issued under an older epoch are revoked. */
  @Prop({ default: 0 }) token_epoch!: number;
  @Prop({ type: Date }) locked_until?: Date;
}

export const UserSchema = SchemaFactory.createForClass(UserDocument);
UserSchema.index({ search_terms: 1, _id: 1 });

/** uid → id, so a lookup by name is also by `_id` (FerretDB pushes down only `_id` equality). */
@Schema({ collection: 'user_names', versionKey: false })
export class UserNameDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) user_id!: string;
}

export const UserNameSchema = SchemaFactory.createForClass(UserNameDocument);
