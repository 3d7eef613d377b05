import type { Model, mongo } from 'mongoose';

/**
 * The driver's collection under a mongoose model, typed by its documents: for the hot reads and
 * writes of documents a service builds whole itself, where mongoose's query building and casting
 * cost more than the round trip (docs/PERFORMANCE.md, "Writes").
 */
export function driverCollection<T extends mongo.Document>(model: Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}

/** The options of such a write: fields left undefined are left out, as mongoose leaves them out. */
export const DRIVER_WRITE = { ignoreUndefined: true } as const;
