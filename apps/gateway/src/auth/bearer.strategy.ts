import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Caller } from '@plaza/contracts';
import { Strategy } from 'passport-http-bearer';
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

  validate(token: string): Promise<Caller> {
    return this.verifier.verify(token);
  }
}
