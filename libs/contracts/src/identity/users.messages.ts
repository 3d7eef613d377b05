import { IsDefined, IsNotEmpty, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { PageRequest, ListEnvelope } from '../common/paging';
import { MAX_PATH_PARAM_LENGTH } from '../common/path-params';
import { UserRecord } from '../common/user';
import { defineMessage } from '../messaging/define-message';

/**
 * A user as the API shows one (docs/api/user.md): the Simple User fields, when they joined, their
 * city and self-description. Never their e-mail, password or lock state: identity builds it from
 * the public fields alone.
 */
export interface UserProfile extends UserRecord {
  loc_id: string;
  loc_name: string;
  desc: string;
  type: 'user';
}

/** Longest user search query, as a book search's. */
export const USER_QUERY_MAX_LENGTH = 200;

export class UserRefRequest {
  /** A uid or a numeric id (a path's `:name`). */
  @IsString() @Matches(/^[A-Za-z0-9._-]+$/) @MaxLength(MAX_PATH_PARAM_LENGTH) ref!: string;
}

/** `GET /v2/user?q=`: `q` is required and must hold a letter or a digit. */
export class UserSearchQuery {
  @IsDefined() @IsString() @IsNotEmpty() @MaxLength(USER_QUERY_MAX_LENGTH) q!: string;
}

export class UserSearchRequest {
  @ValidateNested() @Type(() => UserSearchQuery) query!: UserSearchQuery;
  @ValidateNested() @Type(() => PageRequest) page!: PageRequest;
}

export const UserMessages = {
  get: defineMessage<UserRefRequest, UserProfile>('identity.v1.users.get', UserRefRequest),
  search: defineMessage<UserSearchRequest, ListEnvelope<'users', UserProfile>>('identity.v1.users.search', UserSearchRequest),
} as const;
