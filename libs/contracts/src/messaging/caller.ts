import { IsArray, IsIn, IsOptional, IsString } from 'class-validator';

export const MovieTiers = ['basic', 'advance', 'premium'] as const;
export type MovieTier = (typeof MovieTiers)[number];

/**
 * Who is asking, as established by the gateway from the Bearer token or `apikey`.
 * Services trust it: only the gateway is reachable from outside (see deploy/ NetworkPolicies).
 */
export class Caller {
  /** Numeric user id (string of digits) of a logged-in user; absent for anonymous and client-only calls. */
  @IsOptional() @IsString() userId?: string;
  /** The user's name (`uid`). */
  @IsOptional() @IsString() uid?: string;
  /** OAuth client id / apikey of the calling app, when known. */
  @IsOptional() @IsString() clientId?: string;
  @IsIn(MovieTiers) tier: MovieTier = 'basic';
  @IsArray() @IsString({ each: true }) scopes: string[] = [];
}

export const ANONYMOUS: Caller = Object.freeze({ tier: 'basic', scopes: [] }) as Caller;
