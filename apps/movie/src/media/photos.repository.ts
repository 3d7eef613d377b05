import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { mapLimit, putById } from '../common/store';
import { PhotoDocument, photoKey, PhotoOwner } from './photo.schema';

/** The `photos` collection (subject and celebrity albums). */
@Injectable()
export class PhotosRepository {
  constructor(@InjectModel(PhotoDocument.name) private readonly model: Model<PhotoDocument>) {}

  put(doc: PhotoDocument) {
    return putById(this.model.collection, doc);
  }

  byId(owner: PhotoOwner, id: string): Promise<PhotoDocument | null> {
    return this.model.findById(photoKey(owner, id)).lean<PhotoDocument>().exec();
  }

  /** In the order given; ids with no photo are left out. Parallel findById: `$in` scans on FerretDB v1. */
  async byIds(owner: PhotoOwner, ids: string[]): Promise<PhotoDocument[]> {
    const docs = await mapLimit(ids, 10, (id) => this.byId(owner, id));
    return docs.filter((d): d is PhotoDocument => d !== null);
  }
}
