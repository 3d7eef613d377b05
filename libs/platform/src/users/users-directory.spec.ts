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

  describe('when entries expire', () => {
    let now = 1_000_000;
    beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
    afterEach(() => jest.restoreAllMocks());

    /** identity as a queue of answers: each request waits until the test answers it */
    function slowIdentity() {
      const pending: Array<{ refs: string[]; answer: (users: Record<string, UserRecord>) => void }> = [];
      const request = jest.fn((_message: unknown, { refs }: { refs: string[] }) => new Promise((resolve) => {
        pending.push({ refs, answer: (users) => resolve({ users }) });
      }));
      return { users: new UsersDirectory({ request } as unknown as ServiceBus, 30_000), request, pending };
    }

    it('asks identity once for a user that many lookups need at the same moment', async () => {
      const { users, request, pending } = slowIdentity();
      const lookups = [users.find('abe'), users.resolve(['abe', '4071']), users.find('abe')] as const;
      expect(request).toHaveBeenCalledTimes(2);
      expect(pending.map((p) => p.refs)).toEqual([['abe'], ['4071']]);
      pending[0].answer({ abe });
      pending[1].answer({ 4071: abe });
      const [first, both, third] = await Promise.all(lookups);
      expect(first).toBe(abe);
      expect([...both.values()]).toEqual([abe, abe]);
      expect(third).toBe(abe);
    });

    it('answers from an entry expired less than a TTL ago and refreshes it once in the background', async () => {
      const { users, request, pending } = slowIdentity();
      const first = users.find('abe');
      pending[0].answer({ abe });
      expect(await first).toBe(abe);
      now += 30_001;
      const renamed = { ...abe, name: 'Abe Renamed' };
      // both answered at once from the expired entry; one lookup refreshes it
      expect(await users.find('abe')).toBe(abe);
      expect(await users.find('abe')).toBe(abe);
      expect(request).toHaveBeenCalledTimes(2);
      pending[1].answer({ abe: renamed });
      await new Promise((resolve) => setImmediate(resolve));
      expect(await users.find('abe')).toEqual(renamed);
      expect(request).toHaveBeenCalledTimes(2);
    });

    it('waits for identity once an entry is older than twice the TTL, or names no user', async () => {
      const { users, request, pending } = slowIdentity();
      const first = users.resolve(['abe', 'nobody']);
      pending[0].answer({ abe });
      expect([...(await first).keys()]).toEqual(['abe']);
      now += 60_001;
      const again = users.resolve(['abe', 'nobody']);
      expect(request).toHaveBeenCalledTimes(2);
      const gone = { ...abe, name: 'changed' };
      pending[1].answer({ abe: gone });
      expect((await again).get('abe')).toEqual(gone);
    });

    it('neither remembers nor shares an answer asked for before it was told to forget', async () => {
      const { users, request, pending } = slowIdentity();
      const before = users.find('abe');
      users.clear();
      const after = users.find('abe');
      expect(request).toHaveBeenCalledTimes(2);
      pending[0].answer({ abe });
      pending[1].answer({});
      expect(await before).toBe(abe);
      expect(await after).toBeUndefined();
      // the answer from before the clear was not kept: a third lookup asks again (a null is kept 2 s)
      now += 2_001;
      const third = users.find('abe');
      expect(request).toHaveBeenCalledTimes(3);
      pending[2].answer({});
      expect(await third).toBeUndefined();
    });
  });
});
