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

  /** A book's reviews, newest first, and how many it has (a scan on the local engine: the web page only). */
  async byBook(bookId: string, start: number, count: number): Promise<{ docs: ReviewDocument[]; total: number }> {
    const [docs, total] = await Promise.all([
      count > 0 ? this.reviews.find({ book_id: bookId }).sort({ published: -1, _id: -1 }).skip(start).limit(count).lean<ReviewDocument[]>().exec() : [],
      this.reviews.countDocuments({ book_id: bookId }).exec(),
    ]);
    return { docs, total };
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
