import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { mapLimit, putById } from '../common/store';
import { CommentDocument } from './comment.schema';

/** The `comments` collection. */
@Injectable()
export class CommentsRepository {
  constructor(@InjectModel(CommentDocument.name) private readonly model: Model<CommentDocument>) {}

  put(doc: CommentDocument) {
    return putById(this.model.collection, doc);
  }

  /** In the order given; parallel findById (`$in` scans on FerretDB v1). */
  async byIds(ids: string[]): Promise<CommentDocument[]> {
    const docs = await mapLimit(ids, 10, (id) => this.model.findById(id).lean<CommentDocument>().exec());
    return docs.filter((d): d is CommentDocument => d !== null);
  }
}
