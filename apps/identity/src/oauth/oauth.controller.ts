import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthorizeDecision, AuthorizeRequest, IdentityMessages, RevokeRequest, TokenRequest } from '@plaza/contracts';
import { OAuthService } from './oauth.service';

@Controller()
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @MessagePattern(IdentityMessages.issueToken.subject)
  token(@Payload() req: TokenRequest) {
    return this.oauth.token(req);
  }

  @MessagePattern(IdentityMessages.revokeToken.subject)
  revoke(@Payload() req: RevokeRequest) {
    return this.oauth.revoke(req);
  }

  @MessagePattern(IdentityMessages.checkAuthorize.subject)
  check(@Payload() req: AuthorizeRequest) {
    return this.oauth.checkAuthorize(req);
  }

  @MessagePattern(IdentityMessages.decideAuthorize.subject)
  decide(@Payload() req: AuthorizeDecision) {
    return this.oauth.decideAuthorize(req);
  }
}
