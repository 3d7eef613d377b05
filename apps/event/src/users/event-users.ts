import { Injectable } from '@nestjs/common';
import { ApiError, EventUser, UserRecord } from '@plaza/contracts';
import { UsersDirectory } from '@plaza/platform';

/** The event user shape (docs/api/event.md, "Event user"): avatar, alt, id, name, uid. */
export function toEventUser(user: UserRecord | undefined, id: string): EventUser {
  // a user removed from identity still shows as its id rather than breaking a list
  if (!user) return { avatar: '', alt: '', id, name: '', uid: '' };
  return { avatar: user.avatar, alt: user.alt, id: user.id, name: user.name, uid: user.uid };
}

/** Users belong to identity; this asks it (through the cached UsersDirectory) in the event user shape. */
@Injectable()
export class EventUsers {
  constructor(private readonly directory: UsersDirectory) {}

  /** Users by numeric id, in the order given. */
  async byIds(ids: string[]): Promise<EventUser[]> {
    if (ids.length === 0) return [];
    // a burst of requests about one event asks identity for its owner once: the directory shares lookups
    const found = await this.directory.resolve(ids);
    return ids.map((id) => toEventUser(found.get(id), id));
  }

  async one(id: string): Promise<EventUser> {
    return (await this.byIds([id]))[0];
  }

  /** 404/1001 when no user has this id (docs/api/event.md: unknown user outside the book area). */
  async mustExist(id: string): Promise<void> {
    if (!(await this.exists(id))) throw new ApiError('uri_not_found', `no user ${id}`);
  }

  async exists(id: string): Promise<boolean> {
    const user = await this.directory.find(id);
    return Boolean(user && user.id === id);
  }
}
