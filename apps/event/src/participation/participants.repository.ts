import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { DatabaseEngine } from '@plaza/service-kit';
import { Model } from 'mongoose';
import { EventLocalEngine } from '../events/local-engine';
import { EventUserLinksRepository, linkId } from './event-user-links';
import { ParticipantDocument } from './participation.schemas';

/** The event_participants collection. */
@Injectable()
export class ParticipantsRepository extends EventUserLinksRepository<ParticipantDocument> {
  constructor(@InjectModel(ParticipantDocument.name) model: Model<ParticipantDocument>, engine: DatabaseEngine, local: EventLocalEngine) {
    super(model, engine, local, 'participants');
  }

  /** Changes the day an existing participant chose (a one-document `$set`: nothing to lose; the day is not held in memory). */
  async setDate(eventId: string, userId: string, participateDate: string): Promise<void> {
    await this.model.updateOne({ _id: linkId(eventId, userId) }, { $set: { participate_date: participateDate } }).exec();
  }
}
