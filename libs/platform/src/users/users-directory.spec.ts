import { UserRecord } from '@plaza/contracts';
import { ServiceBus } from '../nats/service-bus';
import { UsersDirectory } from './users-directory';

describe('UsersDirectory', () => {
  const record = (id: string, uid: string) => ({ id, uid, name: `user ${id}` }) as UserRecord;
  const abe = record('4071', 'abe');
  const digits = record('4073', '4071'); // a uid of digits that is abe's id
  /** identity's lookup: a ref of digits is a user id first, then a uid */
  const identity = (ref: string) => [abe, digits].find((u) => u.id === ref) ?? [abe, digits].find((u) => u.uid === ref);

  function directory() {
    const request = jest.fn(async (_message: unknown, { refs }: { refs: string[] }) => ({
      users: Object.fromEntries(refs.flatMap((ref) => (identity(ref) ? [[ref, identity(ref)]] : []))),
    }));
    return { users: new UsersDirectory({ request } as unknown as ServiceBus), request };
  }

  it('answers a second lookup, by id or by uid, from its cache', async () => {
    const { users, request } = directory();
    expect(await users.find('4071')).toBe(abe);
    expect(await users.find('abe')).toBe(abe);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('does not cache a uid of digits as a ref: it may be another user\'s id', async () => {
    const { users } = directory();
    expect(await users.find('4073')).toBe(digits);
    expect(await users.find('4071')).toBe(abe);
  });
});
