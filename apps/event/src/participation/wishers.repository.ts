import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { EventLocalEngine } from '../events/local-engine';
import { EventUserLinksRepository } from './event-user-links';
import { WisherDocument } from './participation.schemas';

/** The event_wishers collection. */
@Injectable()
export class WishersRepository extends EventUserLinksRepository<WisherDocument> {
  constructor(@InjectModel(WisherDocument.name) model: Model<WisherDocument>, engine: DatabaseEngine, local: EventLocalEngine) {
    super(model, engine, local, 'wishers');
  }
}
