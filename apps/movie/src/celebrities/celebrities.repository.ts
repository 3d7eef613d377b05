import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { putById } from '../common/store';
import { CelebrityDocument } from './celebrity.schema';

/** The `celebrities` collection: loaded celebrity records. */
@Injectable()
export class CelebritiesRepository {
  constructor(@InjectModel(CelebrityDocument.name) private readonly model: Model<CelebrityDocument>) {}

  byId(id: string): Promise<CelebrityDocument | null> {
    return this.model.findById(id).lean<CelebrityDocument>().exec();
  }

  put(doc: CelebrityDocument) {
    return putById(this.model.collection, doc);
  }
}
