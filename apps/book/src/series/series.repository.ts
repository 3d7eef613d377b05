import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { SeriesDocument } from './series.schema';

@Injectable()
export class SeriesRepository {
  constructor(@InjectModel(SeriesDocument.name) private readonly series: Model<SeriesDocument>) {}

  async byId(id: string): Promise<SeriesDocument | null> {
    return this.series.findById(id).lean<SeriesDocument>().exec();
  }

  /** Inserts or replaces; returns the title it had before (undefined for a new series). */
  async upsert(id: string, title: string): Promise<string | undefined> {
    const previous = await this.byId(id);
    if (previous?.title !== title) await this.series.replaceOne({ _id: id }, { _id: id, title }, { upsert: true }).exec();
    return previous?.title;
  }
}
