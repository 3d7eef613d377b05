import type { Connection } from 'mongoose';

/** True when the database behind `connection` is FerretDB (its buildInfo says so). */
export async function isFerretDbConnection(connection: Connection): Promise<boolean> {
  const db = connection.db;
  if (!db) throw new Error('database not connected yet');
  const info = await db.admin().command({ buildInfo: 1 });
  return 'ferretdbVersion' in info;
}
