import { Controller, Inject, Logger, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, exportPageMessage, ExportedServices, ExportPageResponse, ServiceName } from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { RequestOrigin, ServiceBus } from '@plaza/platform';
import type { FastifyReply } from 'fastify';
import { pack as tarPack, type Pack } from 'tar-stream';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { CurrentCaller, Origin } from '../../http/request-context';

/** Records per page asked of an area: one small ranged read each (docs/api/export.md). */
export const EXPORT_PAGE_SIZE = 200;
export const EXPORT_FORMAT = 'plaza-export';
export const EXPORT_VERSION = 1;

/**
 * `GET /v2/user/~me/export` (docs/api/export.md): the signed-in user's records as a tar archive of
 * import-format NDJSON pages and the pictures they name, built while the client reads it. Each
 * area answers one page per request and the next page is asked only once the previous one has
 * left through the socket (tar-stream holds a write until the response has taken the last one),
 * so neither the gateway nor a service ever holds a whole export, and a slow client slows only
 * its own export.
 */
@ApiTags('user')
@Controller()
export class ExportController {
  private readonly logger = new Logger(ExportController.name);

  constructor(
    private readonly bus: ServiceBus,
    @Inject(PictureStore) private readonly pictures: PictureStore,
  ) {}

  @Endpoint(Endpoints.accountExport)
  async export(@CurrentCaller() caller: Caller, @Origin() origin: RequestOrigin, @Res() reply: FastifyReply): Promise<void> {
    const userId = caller.userId as string;
    // the first page is asked before the answer starts: an area that is down is then a plain 503/504
    const first = await this.page('identity', userId, undefined, origin);
    const archive = tarPack();
    const name = `plaza-export-${userId}.tar`;
    reply
      .status(200)
      .header('content-type', 'application/x-tar')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'private, no-store');
    let complete = false;
    // a client that goes away: the archive is dropped, and the page being written fails at once
    reply.raw.on('close', () => {
      if (!complete) archive.destroy();
    });
    void this.fill(archive, userId, first, origin).then(
      () => {
        complete = true;
        archive.finalize();
      },
      (err: unknown) => {
        // the status is sent: a failure midway ends the archive unfinished (no end-of-archive
        // blocks), which every tar reader reports, rather than a short archive that looks whole
        this.logger.warn({ msg: 'export interrupted', userId, reqId: origin.requestId, error: String(err) });
        archive.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
    await reply.send(archive);
  }

  private async fill(archive: Pack, userId: string, first: ExportPageResponse, origin: RequestOrigin): Promise<void> {
    const manifest = { format: EXPORT_FORMAT, version: EXPORT_VERSION, user_id: userId, areas: ExportedServices };
    await entry(archive, 'plaza-export.json', Buffer.from(`${JSON.stringify(manifest)}\n`));
    let n = 0;
    for (const service of ExportedServices) {
      let page: ExportPageResponse | undefined = service === 'identity' ? first : await this.page(service, userId, undefined, origin);
      while (page) {
        if (page.records.length) {
          n++;
          const lines = page.records.map((r) => `${JSON.stringify(r)}\n`).join('');
          await entry(archive, `records/${String(n).padStart(6, '0')}-${service}.ndjson`, Buffer.from(lines));
        }
        for (const picture of page.pictures) {
          const bytes = await this.pictures.read(picture.key);
          // a picture deleted since the record was read: its record still names it; the import reports it
          if (bytes) await entry(archive, picture.file, Buffer.from(bytes));
        }
        page = page.next === undefined ? undefined : await this.page(service, userId, page.next, origin);
      }
    }
  }

  private page(service: ServiceName, userId: string, cursor: string | undefined, origin: RequestOrigin): Promise<ExportPageResponse> {
    return this.bus.request(exportPageMessage(service), { user_id: userId, limit: EXPORT_PAGE_SIZE, ...(cursor ? { cursor } : {}) }, origin);
  }
}

/** Writes one file into the archive; resolves once the response has taken it (back-pressure). */
function entry(archive: Pack, name: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    archive.entry({ name, size: body.length, mode: 0o644, mtime: new Date() }, body, (err) => (err ? reject(err) : resolve()));
  });
}
