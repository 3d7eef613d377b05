import { descendingCount, idOrderKey, searchRank, tagRank } from './rank-keys';
import { exactKey } from './terms';

describe('rank keys', () => {
  it('order by popularity descending, then by id in numeric order, as plain strings', () => {
    const keys = [searchRank(5, '10'), searchRank(500, '3'), searchRank(5, '9'), searchRank(0, '1')];
    expect([...keys].sort()).toEqual([searchRank(500, '3'), searchRank(5, '9'), searchRank(5, '10'), searchRank(0, '1')]);
    expect(descendingCount(2) < descendingCount(1)).toBe(true);
    expect(idOrderKey('9') < idOrderKey('10')).toBe(true);
    expect(tagRank(3, searchRank(0, '2')) < tagRank(2, searchRank(0, '1'))).toBe(true);
  });

  it('compare titles as an exact query does: words and CJK runs in order, case, width and punctuation aside', () => {
    expect(exactKey('Zebrafish!')).toBe('zebrafish');
    expect(exactKey('ＺＥＢＲＡＦＩＳＨ')).toBe('zebrafish');
    expect(exactKey('三体II：黑暗森林')).toBe('三体 ii 黑暗森林');
    expect(exactKey('蝴蝶梦')).not.toBe(exactKey('蝴蝶 梦'));
    expect(exactKey('...')).toBe('');
    expect(exactKey(undefined)).toBe('');
  });
});
