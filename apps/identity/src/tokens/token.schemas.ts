import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A refresh token, stored by the SHA-256 of its value (the value itself is never stored). */
@Schema({ collection: 'refresh_tokens', versionKey: false })
export class RefreshTokenDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop() user_id?: string;
  @Prop({ required: true }) client_id!: string;
  @Prop({ type: [String], default: [] }) scopes!: string[];
  /** The grant it belongs to, kept through rotation; its access tokens carry it as `gid`. */
  @Prop() grant_id?: string;
  @Prop({ type: Date, required: true }) expires_at!: Date;
  @Prop({ type: Date, required: true }) issued_at!: Date;
  /**
   * When it was exchanged for its successor. A used token is kept until it expires, so that its
   * replay, a sign that it was stolen, revokes its grant (RFC 9700 section 4.14.2).
   */
  @Prop({ type: Date }) used_at?: Date;
}

export const RefreshTokenSchema = SchemaFactory.createForClass(RefreshTokenDocument);
RefreshTokenSchema.index({ user_id: 1 });
RefreshTokenSchema.index({ grant_id: 1 });
RefreshTokenSchema.index({ expires_at: 1 });

/**
 * A one-time authorization code, stored by its hash; claimed by marking it used. A used code is
 * kept until it expires, so that its replay revokes the tokens issued from it (RFC 6749 section
 * 4.1.2); expired codes, used or not, are deleted by identity itself (no TTL index on FerretDB v1).
 */
@Schema({ collection: 'authorization_codes', versionKey: false })
export class AuthorizationCodeDocument {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) client_id!: string;
  @Prop({ required: true }) user_id!: string;
  @Prop({ required: true }) redirect_uri!: string;
  @Prop({ type: [String], default: [] }) scopes!: string[];
  @Prop() code_challenge?: string;
  /** The user's token epoch at approval: a password change since voids the code, as it does tokens. */
  @Prop() epoch?: number;
  /**
   * The grant its exchange opens: the access tokens carry it as `gid`, the refresh token as
   * `grant_id`. Chosen at approval, so that a replay, however soon, knows which grant to revoke.
   * (Codes approved before grants were chosen at approval have none: a replay revokes nothing.)
   */
  @Prop() grant_id?: string;
  /** When it was exchanged (or an exchange was tried: a failed one consumes the code too). */
  @Prop({ type: Date }) used_at?: Date;
  /** When it was presented again after that: its grant is revoked, and an exchange still under way refuses its tokens. */
  @Prop({ type: Date }) replayed_at?: Date;
  @Prop({ type: Date, required: true }) expires_at!: Date;
}

export const AuthorizationCodeSchema = SchemaFactory.createForClass(AuthorizationCodeDocument);
AuthorizationCodeSchema.index({ expires_at: 1 });
