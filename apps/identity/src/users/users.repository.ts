import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { UserProfile, UserRecord } from '@plaza/contracts';
import { formatTimestamp, KeyedMutex } from '@plaza/platform';
import { indexTerms, queryTerms } from '@plaza/search';
import { Model } from 'mongoose';
import { UserDocument, UserNameDocument } from './user.schema';

export type StoredUser = UserDocument;

/**
 * The users collection and its uid index. Every read is by `_id`; read-modify-write of one user
 * (friends, login failures) runs under a per-user lock (see KeyedMutex for why).
 */
@Injectable()
export class UsersRepository {
  readonly lock = new KeyedMutex();

  constructor(
    @InjectModel(UserDocument.name) private readonly users: Model<UserDocument>,
    @InjectModel(UserNameDocument.name) private readonly names: Model<UserNameDocument>,
  ) {}

  async byId(id: string): Promise<StoredUser | null> {
    return this.users.findById(id).lean<StoredUser>().exec();
  }

  async byUid(uid: string): Promise<StoredUser | null> {
    const name = await this.names.findById(uid).lean<UserNameDocument>().exec();
    if (!name) return null;
    const user = await this.byId(name.user_id);
    return user && user.uid === uid ? user : null;
  }

  /** A `:name` accepts a uid or a numeric id (docs/api/README.md, "Addresses"; docs/api/oauth.md, "Users"). */
  async byRef(ref: string): Promise<StoredUser | null> {
    if (/^\d+$/.test(ref)) {
      const user = await this.byId(ref);
      if (user) return user;
    }
    return this.byUid(ref);
  }

  /**
   * Users whose name or uid holds every term of `query` (the rules of book search, libs/search),
   * by id; the page is cut in the database, on the `search_terms` index, and `total` counted
   * there, on MongoDB and the local engine alike.
   */
  async search(query: string, start: number, count: number): Promise<{ total: number; users: StoredUser[] }> {
    const terms = queryTerms(query);
    if (terms.length === 0) return { total: 0, users: [] };
    const filter = { search_terms: { $all: terms } };
    const [total, users] = await Promise.all([
      this.users.countDocuments(filter).exec(),
      count === 0 ? Promise.resolve([]) : this.users.find(filter).sort({ _id: 1 }).skip(start).limit(count).lean<StoredUser[]>().exec(),
    ]);
    return { total, users };
  }

  /** Users imported before user search existed get their terms (once, at start-up, a batch at a time). */
  async indexMissingSearchTerms(batch = 500): Promise<number> {
    let done = 0;
    for (;;) {
      const missing = await this.users.find({ search_terms: { $exists: false } }, { _id: 1, name: 1, uid: 1 }).limit(batch).lean<StoredUser[]>().exec();
      if (missing.length === 0) return done;
      await Promise.all(missing.map((u) => this.users.updateOne({ _id: u._id }, { $set: { search_terms: userSearchTerms(u.name, u.uid) } }).exec()));
      done += missing.length;
    }
  }

  /** Inserts or replaces a user (import), keeping the uid index right when a uid changes. */
  async upsert(user: StoredUser): Promise<{ previous: StoredUser | null }> {
    return this.lock.run(user._id, async () => {
      const previous = await this.byId(user._id);
      const owner = await this.names.findById(user.uid).lean<UserNameDocument>().exec();
      if (owner && owner.user_id !== user._id) {
        const other = await this.byId(owner.user_id);
        if (other && other.uid === user.uid) throw new Error(`uid ${user.uid} belongs to user ${owner.user_id}`);
      }
      await this.names.replaceOne({ _id: user.uid }, { _id: user.uid, user_id: user._id }, { upsert: true }).exec();
      const merged = { ...user, friend_ids: previous?.friend_ids ?? user.friend_ids ?? [] };
      await this.users.replaceOne({ _id: user._id }, merged, { upsert: true }).exec();
      if (previous && previous.uid !== user.uid) await this.names.deleteOne({ _id: previous.uid, user_id: user._id }).exec();
      return { previous };
    });
  }

  async addFriend(userId: string, friendId: string): Promise<void> {
    await this.lock.run(userId, async () => {
      await this.users.updateOne({ _id: userId }, { $addToSet: { friend_ids: friendId } }).exec();
    });
  }

  async recordLoginFailure(userId: string, lockAfter: number, lockSeconds: number, now: Date): Promise<number> {
    return this.lock.run(userId, async () => {
      const user = await this.byId(userId);
      const failures = (user?.failed_logins ?? 0) + 1;
      const update: Partial<UserDocument> = { failed_logins: failures };
      if (failures >= lockAfter) update.locked_until = new Date(now.getTime() + lockSeconds * 1000);
      await this.users.updateOne({ _id: userId }, { $set: update }).exec();
      return failures;
    });
  }

  async clearLoginFailures(userId: string): Promise<void> {
    await this.lock.run(userId, async () => {
      await this.users.updateOne({ _id: userId }, { $set: { failed_logins: 0 }, $unset: { locked_until: 1 } }).exec();
    });
  }

  /**
   * Removes a deleted account (docs/api/account.md): the user, its uid in the index, and its place
   * in other users' friend lists. Idempotent.
   */
  async remove(userId: string, uid: string): Promise<void> {
    await this.lock.run(userId, async () => {
      await this.users.deleteOne({ _id: userId }).exec();
      await this.names.deleteOne({ _id: uid, user_id: userId }).exec();
    });
    for (const friend of await this.users.find({ friend_ids: userId }, { _id: 1 }).lean<Array<{ _id: string }>>().exec()) {
      await this.lock.run(friend._id, () => this.users.updateOne({ _id: friend._id }, { $pull: { friend_ids: userId } }).exec());
    }
  }

  /** Sets a new password and raises the token epoch; returns the new epoch. */
  async setPassword(userId: string, passwordHash: string): Promise<number> {
    return this.lock.run(userId, async () => {
      const user = await this.byId(userId);
      const epoch = (user?.token_epoch ?? 0) + 1;
      await this.users.updateOne({ _id: userId }, { $set: { password_hash: passwordHash, token_epoch: epoch } }).exec();
      return epoch;
    });
  }
}

/** The public record of a user (no hash, no counters). */
export function toUserRecord(user: StoredUser, timeZone: string): UserRecord {
  return {
    id: user._id,
    uid: user.uid,
    name: user.name,
    signature: user.signature ?? '',
    alt: user.alt,
    avatar: user.avatar,
    created: formatTimestamp(new Date(user.created), timeZone),
  };
}

/** What a user search matches: the name and the uid. */
export function userSearchTerms(name: string, uid: string): string[] {
  return indexTerms(name, uid);
}

/** A user as the API shows one (docs/api/user.md): public fields only. */
export function toUserProfile(user: StoredUser, timeZone: string): UserProfile {
  return { ...toUserRecord(user, timeZone), loc_id: user.loc_id ?? '', loc_name: user.loc_name ?? '', desc: user.desc ?? '', type: 'user' };
}
