import mongoose from 'mongoose';
import type { ServiceConfig } from '@plaza/platform';
import { databaseNameFor, mongoModuleFor } from './mongo.module';

describe('the MongoDB module', () => {
  it('names the database after the URL path, else after the service', () => {
    expect(databaseNameFor('book', 'mongodb://db:27017/plaza-books?replicaSet=rs0')).toBe('plaza-books');
    expect(databaseNameFor('book', 'mongodb://db:27017/?replicaSet=rs0')).toBe('book');
    expect(databaseNameFor('note', 'mongodb+srv://cluster.example.net')).toBe('note');
  });

  it('turns off the stack trace mongoose would capture in every query', () => {
    mongoose.set('skipOriginalStackTraces', false);
    mongoModuleFor('book', { MONGO_URL: 'mongodb://127.0.0.1:1/book', MONGO_TIMEOUT_MS: 1000 } as ServiceConfig);
    expect(mongoose.get('skipOriginalStackTraces')).toBe(true);
  });
});
