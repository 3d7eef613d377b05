import { IsIn, IsOptional, IsString } from 'class-validator';

export const MovieTiers = ['basic', 'advance', 'premium'] as const;
export type MovieTier = (typeof MovieTiers)[number];

/**
 * Who is asking, as established by the gateway from the Bearer token or `apikey`.
 * Services trust it: only the gateway is reachable from outside (see deploy/ NetworkPolicies).
 *
 * It names who asks, not what the token allows: the gateway checks a token's scopes before any
 * message leaves it (docs/DECISIONS.md, "Scopes are checked at the gateway"), so a message
 * carries none. A message that still has a `scopes` field (a gateway of an earlier release,
 * during a rolling upgrade) is read all the same: the field is dropped as unknown.
 */
export class Caller {
  /** Numeric user id (string of digits) of a logged-in user; absent for anonymous and client-only calls. */
  @IsOptional() @IsString() userId?: string;
  /** The user's name (`uid`). */
  @IsOptional() @IsString() uid?: string;
  /** OAuth client id / apikey of the calling app, when known. */
  @IsOptional() @IsString() clientId?: string;
  @IsIn(MovieTiers) tier: MovieTier = 'basic';
}

export const ANONYMOUS: Caller = Object.freeze({ tier: 'basic' }) as Caller;
