import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { EventUserLinksRepository, linkId } from './event-user-links';
import { ParticipantDocument } from './participation.schemas';

/** The event_participants collection. */
@Injectable()
export class ParticipantsRepository extends EventUserLinksRepository<ParticipantDocument> {
  constructor(@InjectModel(ParticipantDocument.name) model: Model<ParticipantDocument>) {
    super(model);
  }

  /** Changes the day an existing participant chose (a one-document `$set`: nothing to lose). */
  async setDate(eventId: string, userId: string, participateDate: string): Promise<void> {
    await this.model.updateOne({ _id: linkId(eventId, userId) }, { $set: { participate_date: participateDate } }).exec();
  }
}
