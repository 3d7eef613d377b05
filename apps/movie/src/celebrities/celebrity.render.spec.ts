import { SimpleSubject } from '@plaza/contracts';
import { sortWorks, StoredWork } from './celebrity.render';

const work = (id: string, year: string): StoredWork => ({ subject_id: id, roles: ['导演'], subject: { id, year } as SimpleSubject });

it('orders works newest first, subjects without a year last, ties by the higher id', () => {
  const sorted = sortWorks([work('5', '2001'), work('9', ''), work('10', '2020'), work('30', '2001'), work('7', '2020 (重映)')]);
  expect(sorted.map((w) => w.subject_id)).toEqual(['10', '7', '30', '5', '9']);
});
