import { Controller, Get, INestApplication, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError } from '@plaza/contracts';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { registerExtraRoute } from '../endpoints/route-patterns';
import { createOpenApiDocument } from './openapi-document';

registerExtraRoute('GET', '/v2/openapi.json');
registerExtraRoute('GET', '/v2/explorer');
registerExtraRoute('GET', '/v2/explorer/:name');

/**
 * The page loads only its own scripts and styles (swagger-ui-dist, installed locally: no CDN);
 * Swagger UI sets inline styles and uses data: images. This policy replaces the API's
 * `default-src 'none'` on the explorer's responses only.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Files of swagger-ui-dist the page needs, and our initialiser (inline scripts stay forbidden). */
const ASSETS: Record<string, { file?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui-standalone-preset.js': { file: 'swagger-ui-standalone-preset.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
  'explorer.js': { type: 'text/javascript; charset=utf-8' },
};

const EXPLORER_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v2/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

const EXPLORER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Plaza API explorer</title>
<link rel="stylesheet" href="/v2/explorer/swagger-ui.css">
<link rel="icon" type="image/png" href="/v2/explorer/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/v2/explorer/swagger-ui-bundle.js"></script>
<script src="/v2/explorer/swagger-ui-standalone-preset.js"></script>
<script src="/v2/explorer/explorer.js"></script>
</body>
</html>
`;

/**
 * `GET /v2/openapi.json`, the OpenAPI 3 document generated from the code, and `GET /v2/explorer`,
 * Swagger UI over it. The document is built once, on the first request (never at start-up nor on
 * the API's hot path), by @nestjs/swagger from the application `serveOpenApiDocument` names.
 */
@ApiExcludeController()
@Controller('v2')
export class OpenApiController {
  private app?: INestApplication;
  private document?: string;
  private readonly assets = new Map<string, Buffer>();

  /** The application whose routes the document describes (see `serveOpenApiDocument`). */
  describe(app: INestApplication): void {
    this.app = app;
    this.document = undefined;
  }

  private documentJson(): string {
    if (!this.document) {
      if (!this.app) throw new Error('OpenAPI document: serveOpenApiDocument(app) was not called');
      const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
      this.document = JSON.stringify(createOpenApiDocument(this.app, { version }));
    }
    return this.document;
  }

  @Get('openapi.json')
  openapi(@Res() reply: FastifyReply): void {
    void reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(this.documentJson());
  }

  @Get('explorer')
  explorer(@Res() reply: FastifyReply): void {
    void reply.header('content-security-policy', EXPLORER_CSP).type('text/html; charset=utf-8').send(EXPLORER_HTML);
  }

  @Get('explorer/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): void {
    const asset = Object.prototype.hasOwnProperty.call(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new ApiError('uri_not_found');
    let bytes = this.assets.get(name);
    if (!bytes) {
      bytes = asset.file ? readFileSync(join(swaggerUiDir(), asset.file)) : Buffer.from(EXPLORER_JS);
      this.assets.set(name, bytes);
    }
    void reply
      .header('content-security-policy', EXPLORER_CSP)
      .header('cache-control', 'public, max-age=3600')
      .type(asset.type)
      .send(bytes);
  }
}

/**
 * Lets `GET /v2/openapi.json` generate its document from this application (main.ts calls it once
 * the application is created; nothing is generated until the document is first asked for).
 */
export function serveOpenApiDocument(app: INestApplication): void {
  app.get(OpenApiController).describe(app);
}

function swaggerUiDir(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}
