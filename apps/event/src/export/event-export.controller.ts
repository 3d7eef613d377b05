import { Controller } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportPageMessage, ExportPageRequest, ExportPageResponse } from '@plaza/contracts';
import { ExportStep, readExportPage } from '@plaza/service-kit';
import type { Connection } from 'mongoose';

/**
 * `event.v1.export.page` (docs/api/export.md): the user's participations and interest, as import
 * records of the kinds `event_participant` and `event_wisher`.
 */
@Controller()
export class EventExportController {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  @MessagePattern(exportPageMessage('event').subject)
  page(@Payload() req: ExportPageRequest): Promise<ExportPageResponse> {
    return readExportPage(this.connection, eventExportSteps(req.user_id), req);
  }
}

export function eventExportSteps(userId: string): ExportStep[] {
  return [
    {
      collection: 'event_participants',
      filter: { user_id: userId },
      toRecord: (d) => ({
        record: { kind: 'event_participant', event_id: d.event_id, user_id: userId, ...(d.participate_date ? { participate_date: d.participate_date } : {}) },
      }),
    },
    {
      collection: 'event_wishers',
      filter: { user_id: userId },
      toRecord: (d) => ({ record: { kind: 'event_wisher', event_id: d.event_id, user_id: userId } }),
    },
  ];
}
