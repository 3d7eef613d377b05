import { Module } from '@nestjs/common';
import { ChangeFeedReader } from './change-feed.reader';
import { ChangesController } from './changes.controller';

/** `GET /v2/changes` (docs/api/changes.md). */
@Module({ controllers: [ChangesController], providers: [ChangeFeedReader] })
export class ChangesAreaModule {}
