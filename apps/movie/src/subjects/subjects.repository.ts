import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { putById } from '../common/store';
import { SubjectDocument } from './subject.schema';

/** The `subjects` collection: loaded subject records. */
@Injectable()
export class SubjectsRepository {
  constructor(@InjectModel(SubjectDocument.name) private readonly model: Model<SubjectDocument>) {}

  byId(id: string): Promise<SubjectDocument | null> {
    return this.model.findById(id).lean<SubjectDocument>().exec();
  }

  put(doc: SubjectDocument) {
    return putById(this.model.collection, doc);
  }
}
