import { IsString, MaxLength } from 'class-validator';
import { defineMessage } from '../messaging/define-message';

export class ResolveLocRequest {
  /** A city's numeric id, uid (`beijing`) or Chinese name (`北京`). */
  @IsString() @MaxLength(100) ref!: string;
}

export interface ResolvedLoc {
  id: string;
  name: string;
  uid: string;
}

/**
 * Cities belong to the event service; the movie service asks it to resolve `in_theaters?city=`.
 * Replies 404/1001 when no city matches.
 */
export const RESOLVE_LOC = defineMessage<ResolveLocRequest, ResolvedLoc>('event.v1.loc.resolve', ResolveLocRequest);
