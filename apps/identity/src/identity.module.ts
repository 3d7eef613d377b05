import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountController } from './accounts/account.controller';
import { AccountDeletion } from './accounts/account-deletion';
import { AppDocument, AppSchema } from './apps/app.schema';
import { AppsRepository } from './apps/apps.repository';
import { IdentityImportController } from './import/identity-import.controller';
import { LoginService } from './oauth/login.service';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthService } from './oauth/oauth.service';
import { TokenIssuer } from './tokens/token-issuer';
import { AuthorizationCodeDocument, AuthorizationCodeSchema, RefreshTokenDocument, RefreshTokenSchema } from './tokens/token.schemas';
import { UserDocument, UserNameDocument, UserNameSchema, UserSchema } from './users/user.schema';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { IdentityExportController } from './export/identity-export.controller';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: UserDocument.name, schema: UserSchema },
      { name: UserNameDocument.name, schema: UserNameSchema },
      { name: AppDocument.name, schema: AppSchema },
      { name: RefreshTokenDocument.name, schema: RefreshTokenSchema },
      { name: AuthorizationCodeDocument.name, schema: AuthorizationCodeSchema },
    ]),
  ],
  controllers: [OAuthController, UsersController, IdentityImportController, AccountController, IdentityExportController],
  providers: [UsersRepository, AppsRepository, TokenIssuer, LoginService, OAuthService, AccountDeletion],
})
export class IdentityModule {}
