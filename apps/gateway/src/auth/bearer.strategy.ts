import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { Principal } from './principal';
import { TokenVerifier } from './token-verifier';

/**
 * passport-http-bearer parses `Authorization: Bearer …` (RFC 6750); the token is checked by
 * TokenVerifier. A failure throws the API's code (103 invalid, 106 expired: docs/api/README.md, "Authorization"), which
 * passport hands on unchanged.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(TokenVerifier) private readonly verifier: TokenVerifier) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.verifier.verify(token);
  }
}
