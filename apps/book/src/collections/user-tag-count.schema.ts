import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * How many of a user's collection entries carry a tag (`GET /v2/book/user/:name/tags`) on MongoDB:
 * one document per user and tag (`_id` `<user id>|<tag>`), `all` counting every entry and `public`
 * the entries others may see. Moved with `$inc` after each entry write that changed the entry's
 * tags or privacy, so any number of instances keep it exact and a page of a user's tags is one
 * indexed query. The local engine counts from its in-memory entries instead (BookLocalEngine).
 */
@Schema({ collection: 'user_tag_counts', versionKey: false })
export class UserTagCountDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) user_id!: string;
  @Prop({ required: true }) tag!: string;
  @Prop({ default: 0 }) all!: number;
  @Prop({ default: 0 }) public!: number;
}

export const UserTagCountSchema = SchemaFactory.createForClass(UserTagCountDocument);
// the owner's view and everyone else's: most used first, then by name (common/indexes.spec.ts)
UserTagCountSchema.index({ user_id: 1, all: -1, tag: 1 });
UserTagCountSchema.index({ user_id: 1, public: -1, tag: 1 });

export const userTagCountId = (userId: string, tag: string) => `${userId}|${tag}`;
