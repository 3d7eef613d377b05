import { MovieTiers, Scopes } from '@plaza/contracts';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';

/** `user` import record (docs/api/oauth.md and docs/api/import.md). */
export class UserImportRecord {
  @Matches(/^\d{1,18}$/, { message: 'id must be digits' }) id!: string;
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'uid must be letters, digits, - _ .' }) uid!: string;
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsOptional() @IsString() @MaxLength(2000) avatar?: string;
  @IsOptional() @IsString() @MaxLength(1000) signature?: string;
  @IsOptional() @IsString() @MaxLength(2000) alt?: string;
  @IsOptional() @IsString() created?: string;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(500) password?: string;
  /** The user's city (docs/api/user.md): an event-area loc id and its name. */
  @IsOptional() @Matches(/^\d{0,18}$/, { message: 'loc_id must be digits' }) loc_id?: string;
  @IsOptional() @IsString() @MaxLength(100) loc_name?: string;
  @IsOptional() @IsString() @MaxLength(2000) desc?: string;
}

/** `app` import record. */
export class AppImportRecord {
  @Matches(/^[A-Za-z0-9_.-]{1,100}$/, { message: 'client_id must be letters, digits, - _ .' }) client_id!: string;
  @IsOptional() @IsString() @MinLength(8) @MaxLength(200) client_secret?: string;
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsIn(MovieTiers) tier!: (typeof MovieTiers)[number];
  @IsArray() @IsIn(Scopes, { each: true }) scopes!: string[];
  @IsArray() @ArrayMaxSize(20) @IsUrl({ require_tld: false, require_protocol: true }, { each: true }) redirect_uris!: string[];
  @IsBoolean() trusted!: boolean;
  @IsOptional() @IsBoolean() blocked?: boolean;
}

/** `friendship` import record (mutual). */
export class FriendshipImportRecord {
  @Matches(/^\d{1,18}$/) user_id!: string;
  @Matches(/^\d{1,18}$/) friend_id!: string;
}
