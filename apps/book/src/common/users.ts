import { ApiError, SimpleUser, UserRecord } from '@plaza/contracts';
import { UsersDirectory } from '@plaza/platform';

export function toSimpleUser(user: UserRecord): SimpleUser {
  return { id: user.id, uid: user.uid, name: user.name, signature: user.signature ?? '', alt: user.alt, avatar: user.avatar };
}

/** A user identity no longer knows still shows as an author, by id. */
export function unknownUser(id: string): SimpleUser {
  return { id, uid: id, name: '', signature: '', alt: '', avatar: '' };
}

/** `:name` and `user_id` (uid or numeric id); an unknown user is 404/6008 in the book area (docs/api/book.md). */
export async function requireUser(users: UsersDirectory, ref: string): Promise<UserRecord> {
  const user = await users.find(ref);
  if (!user) throw new ApiError('people_not_found', `no user ${ref}`);
  return user;
}

/** The Simple User of the user `id`, as identity knows them (`user`) or by id alone. */
export function simpleUserOf(user: UserRecord | undefined, id: string): SimpleUser {
  return user ? toSimpleUser(user) : unknownUser(id);
}

/** Simple Users for a set of ids, one request for all; an id identity does not know still gets one. */
export async function simpleUsers(users: UsersDirectory, ids: string[]): Promise<(id: string) => SimpleUser> {
  const found = await users.resolve(ids);
  return (id) => simpleUserOf(found.get(id), id);
}
