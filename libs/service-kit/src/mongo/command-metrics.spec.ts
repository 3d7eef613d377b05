import { initMetrics, metricsText } from '@plaza/platform';
import { EventEmitter } from 'node:events';
import type { Connection } from 'mongoose';
import { collectionOf, recordCommandDurations } from './command-metrics';

describe('MongoDB command metrics', () => {
  it('names the collection a command works on, and `-` for database commands', () => {
    expect(collectionOf({ commandName: 'find', requestId: 1, command: { find: 'books', filter: {} } })).toBe('books');
    expect(collectionOf({ commandName: 'getMore', requestId: 2, command: { getMore: 12345n, collection: 'books' } })).toBe('books');
    expect(collectionOf({ commandName: 'aggregate', requestId: 3, command: { aggregate: 1, pipeline: [] } })).toBe('-');
    expect(collectionOf({ commandName: 'ping', requestId: 4, command: { ping: 1 } })).toBe('-');
  });

  it('records each finished command under the collection its start named, with the driver’s duration', async () => {
    initMetrics('book', true);
    const connection = new EventEmitter();
    recordCommandDurations(connection as unknown as Connection);
    connection.emit('commandStarted', { commandName: 'find', requestId: 7, command: { find: 'books' } });
    connection.emit('commandStarted', { commandName: 'update', requestId: 8, command: { update: 'collections' } });
    connection.emit('commandSucceeded', { commandName: 'find', requestId: 7, duration: 3 });
    connection.emit('commandFailed', { commandName: 'update', requestId: 8, duration: 40 });
    const body = (await metricsText())!.body;
    expect(body).toContain('plaza_mongodb_command_duration_seconds_count{service="book",collection="books",command="find",outcome="ok"} 1');
    expect(body).toContain('plaza_mongodb_command_duration_seconds_sum{service="book",collection="books",command="find",outcome="ok"} 0.003');
    expect(body).toContain('plaza_mongodb_command_duration_seconds_count{service="book",collection="collections",command="update",outcome="error"} 1');
  });
});
