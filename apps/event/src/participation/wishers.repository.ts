import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { EventUserLinksRepository } from './event-user-links';
import { WisherDocument } from './participation.schemas';

/** The event_wishers collection. */
@Injectable()
export class WishersRepository extends EventUserLinksRepository<WisherDocument> {
  constructor(@InjectModel(WisherDocument.name) model: Model<WisherDocument>) {
    super(model);
  }
}
