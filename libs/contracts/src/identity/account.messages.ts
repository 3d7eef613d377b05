import { Type } from 'class-transformer';
import { IsDefined, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Caller } from '../messaging/caller';
import { defineMessage, ServiceName } from '../messaging/define-message';

/**
 * Account deletion (docs/api/account.md). The user confirms with their password; identity
 * deletes the account, revokes every token at once (the revocation bucket every gateway
 * watches), and has each area that keeps the user's records erase them.
 */
export class AccountDeleteInput {
  /** The account's password, to confirm. */
  @IsDefined() @IsString() @MaxLength(500) password!: string;
}

export class AccountDeleteRequest {
  @ValidateNested() @Type(() => Caller) caller!: Caller;
  @IsDefined() @IsString() @MaxLength(500) password!: string;
  /** Client address, for the sign-in failure accounting a wrong password counts in. */
  @IsOptional() @IsString() @MaxLength(100) client_ip?: string;
}

export interface AccountDeleteResponse {
  /** The areas that erased the user's records before the answer; the others are erased by identity's sweep. */
  erased: ServiceName[];
  pending: ServiceName[];
}

export const AccountMessages = {
  delete: defineMessage<AccountDeleteRequest, AccountDeleteResponse>('identity.v1.account.delete', AccountDeleteRequest),
};

/** How long a deleted account's uid (and id) stay reserved: no import may take them before. */
export const DELETED_ACCOUNT_HOLD_DAYS = 180;

export class ErasureRequest {
  @IsDefined() @IsString() @Matches(/^[0-9]{1,30}$/) user_id!: string;
}

export interface ErasureResponse {
  /** How many records of each kind were removed (a second run finds none). */
  erased: Record<string, number>;
}

/**
 * `<service>.v1.erasure.run`: removes everything the user wrote or did in the area, keeping every
 * counter right. Idempotent. Only identity may ask (NATS permissions, docs/DECISIONS.md "NATS").
 */
export const erasureMessage = (service: ServiceName) => defineMessage<ErasureRequest, ErasureResponse>(`${service}.v1.erasure.run`, ErasureRequest);

/** The services that keep records of users, in the order identity asks them. */
export const ErasedServices: ServiceName[] = ['note', 'event', 'book'];
