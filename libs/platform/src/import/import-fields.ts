import type { UserRecord } from '@plaza/contracts';
import { parseZonedTimestamp } from '../time/timestamps';

/**
 * Fields every import of users' content reads the same way (docs/api/import.md): a time as the
 * API writes it (`yyyy-MM-dd HH:mm:ss` in the service's zone) or ISO 8601, and a user the batch
 * resolved from identity. Each throws the line's error, which the import runner reports.
 */
export function importTime(text: string, field: string, timeZone: string): Date {
  const parsed = parseZonedTimestamp(text, timeZone) ?? (/^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(text) : undefined);
  if (!parsed || Number.isNaN(parsed.getTime())) throw new Error(`${field} is not a timestamp (yyyy-MM-dd HH:mm:ss or ISO 8601)`);
  return parsed;
}

/** The user `ref` (an id or uid) names among those the batch resolved; `role` words the error. */
export function importedUser(users: Map<string, UserRecord>, ref: string | undefined, role: string): UserRecord {
  const found = ref === undefined ? undefined : users.get(ref);
  if (!found) throw new Error(`unknown ${role} ${ref ?? ''}`.trim());
  return found;
}
