import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ChangeKind, ChangesQuery } from '@plaza/contracts';
import { Endpoint } from '../../endpoints/endpoint.decorator';
import { Endpoints } from '../../endpoints/endpoint-table';
import { ChangeFeedReader } from './change-feed.reader';

/** The public catalogue's change feed (docs/api/changes.md): read from JetStream, no service behind it. */
@ApiTags('changes')
@Controller()
export class ChangesController {
  constructor(private readonly reader: ChangeFeedReader) {}

  @Endpoint(Endpoints.changes)
  list(@Query() query: ChangesQuery) {
    const kinds = query.kinds?.split(',').map((k) => k.trim() as ChangeKind);
    return this.reader.page({ since: query.since, kinds, count: query.count });
  }
}
