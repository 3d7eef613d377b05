import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { MovieTier } from '@plaza/contracts';

/** An app (OAuth client); `_id` is its client_id, which is also its apikey. */
@Schema({ collection: 'apps', versionKey: false })
export class AppDocument {
  @Prop({ type: String, required: true }) _id!: string;
  /** sha256 of the client secret; absent for public clients (which must use PKCE). */
  @Prop() secret_hash?: string;
  @Prop({ required: true }) name!: string;
  @Prop({ type: String, required: true }) tier!: MovieTier;
  @Prop({ type: [String], default: [] }) scopes!: string[];
  @Prop({ type: [String], default: [] }) redirect_uris!: string[];
  /** Only trusted apps may use the password grant. */
  @Prop({ default: false }) trusted!: boolean;
  @Prop({ default: false }) blocked!: boolean;
}

export const AppSchema = SchemaFactory.createForClass(AppDocument);
