import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { mapLimit, putById } from '../common/store';
import { ReviewDocument } from './review.schema';

/** The `reviews` collection. */
@Injectable()
export class ReviewsRepository {
  constructor(@InjectModel(ReviewDocument.name) private readonly model: Model<ReviewDocument>) {}

  put(doc: ReviewDocument) {
    return putById(this.model.collection, doc);
  }

  /** In the order given; parallel findById (`$in` scans on FerretDB v1). */
  async byIds(ids: string[]): Promise<ReviewDocument[]> {
    const docs = await mapLimit(ids, 10, (id) => this.model.findById(id).lean<ReviewDocument>().exec());
    return docs.filter((d): d is ReviewDocument => d !== null);
  }
}
