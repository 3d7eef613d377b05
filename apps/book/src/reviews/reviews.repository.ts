import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ReviewDocument } from './review.schema';

@Injectable()
export class ReviewsRepository {
  constructor(@InjectModel(ReviewDocument.name) private readonly reviews: Model<ReviewDocument>) {}

  async byId(id: number): Promise<ReviewDocument | null> {
    return this.reviews.findById(id).lean<ReviewDocument>().exec();
  }

  async insert(doc: ReviewDocument): Promise<void> {
    await this.reviews.create(doc);
  }

  async replace(doc: ReviewDocument): Promise<void> {
    await this.reviews.replaceOne({ _id: doc._id }, doc).exec();
  }

  async delete(id: number): Promise<void> {
    await this.reviews.deleteOne({ _id: id }).exec();
  }
}
