import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { changeFeedProviders, DatabaseEngine } from '@plaza/service-kit';
import { EventErasureController } from './participation/erasure.controller';
import { EventPresenter } from './events/event-presenter';
import { EventDocument, EventSchema } from './events/event.schema';
import { EventSearchDocument, EventSearchSchema } from './events/event-search.schema';
import { EventSearchRepository } from './events/event-search.repository';
import { EventsController } from './events/events.controller';
import { EventsRepository } from './events/events.repository';
import { EventsService } from './events/events.service';
import { EventLocalEngine } from './events/local-engine';
import { EventImportController } from './import/event-import.controller';
import { LocDocument, LocRefDocument, LocRefSchema, LocSchema } from './locs/loc.schema';
import { LocsController } from './locs/locs.controller';
import { LocsRepository } from './locs/locs.repository';
import { LocsService } from './locs/locs.service';
import { ParticipantsRepository } from './participation/participants.repository';
import { ParticipationController } from './participation/participation.controller';
import { ParticipantDocument, ParticipantSchema, WisherDocument, WisherSchema } from './participation/participation.schemas';
import { ParticipationService } from './participation/participation.service';
import { WishersRepository } from './participation/wishers.repository';
import { EventRepair } from './recovery/event-repair';
import { EventReconcileController } from './recovery/reconcile.controller';
import { EventUsers } from './users/event-users';
import { EventExportController } from './export/event-export.controller';

/** The event service: cities, events, participation and interest, their import, and the repair journal of its multi-document writes. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: LocDocument.name, schema: LocSchema },
      { name: LocRefDocument.name, schema: LocRefSchema },
      { name: EventDocument.name, schema: EventSchema },
      { name: EventSearchDocument.name, schema: EventSearchSchema },
      { name: ParticipantDocument.name, schema: ParticipantSchema },
      { name: WisherDocument.name, schema: WisherSchema },
    ]),
  ],
  controllers: [LocsController, EventsController, ParticipationController, EventImportController, EventReconcileController, EventErasureController, EventExportController],
  providers: [
    // the catalogue's change feed (docs/api/changes.md)
    ...changeFeedProviders(),
    LocsRepository, EventsRepository, EventSearchRepository, ParticipantsRepository, WishersRepository,
    LocsService, EventsService, ParticipationService, EventPresenter, EventUsers, EventRepair, DatabaseEngine, EventLocalEngine,
  ],
})
export class EventModule {}
