import { Controller, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '@plaza/contracts';
import { CONTENT_TYPES, EXTENSIONS, PictureSigner, PictureStore } from '@plaza/pictures';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Endpoint } from '../endpoints/endpoint.decorator';
import { Endpoints } from '../endpoints/endpoint-table';

/**
 * Serves stored pictures: public ones to anyone, the others only through an address signed by
 * the owning service (wrong check 403/1010, expired 403/1011). Keys are random and content
 * never changes under a key, so the key is the ETag.
 */
@ApiTags('pictures')
@Controller()
export class PictureController {
  constructor(
    @Inject(PictureStore) private readonly store: PictureStore,
    @Inject(PictureSigner) private readonly signer: PictureSigner,
  ) {}

  @Endpoint(Endpoints.pictureGet)
  async get(
    @Param('name') name: string,
    @Query('ck') ck: unknown,
    @Query('e') e: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const match = /^([a-z]+-[0-9a-f]{32})\.([a-z]+)$/.exec(name);
    if (!match) throw new ApiError('uri_not_found');
    const [, key, extension] = match;
    const meta = await this.store.info(key).catch(() => {
      throw new ApiError('service_unavailable', 'picture storage unavailable');
    });
    if (!meta || meta.staged || EXTENSIONS[meta.format] !== extension) throw new ApiError('uri_not_found');
    if (!meta.public) this.signer.verify(key, ck, e);
    const etag = `"${key}"`;
    reply.header('etag', etag).header('cache-control', meta.public ? 'public, max-age=86400, immutable' : 'private, max-age=3600');
    if (request.headers['if-none-match'] === etag) return void reply.status(304).send();
    const bytes = await this.store.read(key);
    if (!bytes) throw new ApiError('uri_not_found');
    await reply.status(200).type(CONTENT_TYPES[meta.format]).send(Buffer.from(bytes));
  }
}
