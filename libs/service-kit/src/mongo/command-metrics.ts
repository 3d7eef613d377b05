import { Metrics, metricsEnabled } from '@plaza/platform';
import type { Connection } from 'mongoose';

interface StartedCommand {
  commandName: string;
  requestId: number;
  command: Record<string, unknown>;
}
interface FinishedCommand {
  commandName: string;
  requestId: number;
  /** Milliseconds, measured by the driver. */
  duration: number;
}

/** The collection a command works on: its first field's value (`{find: 'books'}`), `getMore`'s `collection`; `-` for database commands. */
export function collectionOf(event: StartedCommand): string {
  const target = event.commandName === 'getMore' ? event.command.collection : event.command[event.commandName];
  return typeof target === 'string' ? target : '-';
}

/**
 * Feeds `plaza_mongodb_command_duration_seconds` from the driver's command monitoring (the
 * connection is opened with `monitorCommands`): the started event names the collection, the
 * finished one brings the duration.
 */
export function recordCommandDurations(connection: Connection): void {
  if (!metricsEnabled()) return;
  const started = new Map<number, string>();
  connection.on('commandStarted', (event: StartedCommand) => started.set(event.requestId, collectionOf(event)));
  const finished = (ok: boolean) => (event: FinishedCommand) => {
    const collection = started.get(event.requestId) ?? '-';
    started.delete(event.requestId);
    Metrics.mongoCommand(collection, event.commandName, ok, event.duration / 1000);
  };
  connection.on('commandSucceeded', finished(true));
  connection.on('commandFailed', finished(false));
}
