import { Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { ApiError, AuthorizeDecision, AuthorizeRequest, IdentityMessages, RevokeRequest, TokenRequest, TokenResponse } from '@plaza/contracts';
import { ServiceBus, Forwarded } from '@plaza/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { registerExtraRoute } from '../endpoints/route-patterns';
import { originOf } from '../http/request-context';
import { readTextBody } from '../pictures/multipart-body';
import { renderConsentPage, renderErrorPage, signInPagePolicy } from './consent-page';

registerExtraRoute('GET', '/auth2/auth');
registerExtraRoute('POST', '/auth2/auth');
registerExtraRoute('POST', '/auth2/token');
registerExtraRoute('POST', '/auth2/revoke');

const AUTHORIZE_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 2.3.1), when present. */
function basicCredentials(request: FastifyRequest): { client_id?: string; client_secret?: string } {
  const header = request.headers.authorization ?? '';
  const match = /^basic\s+(.+)$/i.exec(header);
  if (!match) return {};
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  try {
    return { client_id: decodeURIComponent(decoded.slice(0, colon)), client_secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    // a malformed %-escape is the client's mistake, not a 500 (URIError)
    throw new ApiError('invalid_args', 'malformed Basic credentials');
  }
}

const wantsHtml = (request: FastifyRequest) => /text\/html/.test(String(request.headers.accept ?? ''));

/**
 * The OAuth endpoints of docs/api/oauth.md. The page is rendered here; every decision is
 * identity's, over NATS. Errors of the token and revoke endpoints also carry RFC 6749's
 * `error`/`error_description` (added by the exception filter for /auth2 paths).
 */
@ApiTags('oauth')
@Controller('auth2')
export class Auth2Controller {
  constructor(
    private readonly bus: ServiceBus,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  private requireHttps(request: FastifyRequest): void {
    if (this.config.requireHttps && request.protocol !== 'https') throw new ApiError('invalid_request_scheme');
  }

  /** A sign-in page: never cached (it may carry a form's hidden state), under its own CSP. */
  private async sendPage(reply: FastifyReply, status: number, html: string, redirectUri?: string): Promise<void> {
    await reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', signInPagePolicy(this.config.requireHttps, redirectUri))
      .type('text/html; charset=utf-8')
      .send(html);
  }

  @Get('auth')
  @ApiExcludeEndpoint()
  async authorizePage(@Query() query: AuthorizeRequest, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.requireHttps(request);
    let check;
    try {
      check = await this.bus.request(IdentityMessages.checkAuthorize, query, originOf(request));
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && wantsHtml(request)) {
        await this.sendPage(reply, err.status, renderErrorPage('Cannot sign in', `${err.msg} (${err.code})`));
        return;
      }
      throw err;
    }
    if (check.redirect) return void reply.redirect(check.redirect, 302);
    const params = Object.fromEntries(AUTHORIZE_PARAMS.map((k) => [k, query[k]]));
    await this.sendPage(reply, 200, renderConsentPage({ appName: check.app_name, scopes: check.scopes, params }), query.redirect_uri);
  }

  @Post('auth')
  @ApiExcludeEndpoint()
  async authorizeDecision(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.requireHttps(request);
    const body = await readTextBody(request, AuthorizeDecision);
    try {
      const { redirect } = await this.bus.request(IdentityMessages.decideAuthorize, { ...body, client_ip: request.ip }, originOf(request));
      return void reply.redirect(redirect, 302);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 120 || err.code === 128 || err.code === 113) && wantsHtml(request)) {
        const check = await this.bus.request(IdentityMessages.checkAuthorize, body);
        const params = Object.fromEntries(AUTHORIZE_PARAMS.map((k) => [k, body[k]]));
        const message = err.code === 128 ? 'Too many failed sign-ins. Try again later.' : 'Wrong user name or password.';
        await this.sendPage(reply, err.status, renderConsentPage({ appName: check.app_name, scopes: check.scopes, params, error: message }), body.redirect_uri);
        return;
      }
      throw err;
    }
  }

  @Post('token')
  @HttpCode(200)
  @ApiBody({ type: TokenRequest })
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    this.requireHttps(request);
    const body = await readTextBody(request, TokenRequest);
    const basic = basicCredentials(request);
    const response = await this.bus.request(
      IdentityMessages.issueToken,
      { ...body, client_id: body.client_id ?? basic.client_id, client_secret: body.client_secret ?? basic.client_secret, client_ip: request.ip },
      originOf(request),
    );
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return response;
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiBody({ type: RevokeRequest })
  async revoke(@Req() request: FastifyRequest): Promise<Forwarded<Record<string, never>>> {
    this.requireHttps(request);
    const body = await readTextBody(request, RevokeRequest);
    const basic = basicCredentials(request);
    return this.bus.forward(
      IdentityMessages.revokeToken,
      { ...body, client_id: body.client_id ?? basic.client_id, client_secret: body.client_secret ?? basic.client_secret },
      originOf(request),
    );
  }
}
