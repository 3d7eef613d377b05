import { queryTerms } from '@plaza/search';
import { eventSearchEntry, SEARCHED_CONTENT_LENGTH } from './event-search.repository';

describe('eventSearchEntry (docs/api/event.md, GET /v2/event/search)', () => {
  const base = {
    _id: '500001', title: '春天音乐节 Jazz', address: '工人体育场', content: '', is_priv: false,
    begin: new Date('2099-05-01T10:00:00Z'), end: new Date('2099-05-01T12:00:00Z'), loc_id: '108288', category: 'music' as const,
  };
  const finds = (entry: { search_terms: string[] }, q: string) => queryTerms(q).every((t) => entry.search_terms.includes(t));

  it('holds the terms of the title, the address and the content, matched as book search matches', () => {
    const entry = eventSearchEntry({ ...base, content: '一场关于夏天的演出' });
    for (const q of ['天音', '春天 音乐', 'JAZZ', 'ｊａｚｚ', '体育场', '夏天']) expect({ q, found: finds(entry, q) }).toEqual({ q, found: true });
    expect(finds(entry, '秋天')).toBe(false);
  });

  it('searches only the opening of a long content', () => {
    const content = `${'啊'.repeat(SEARCHED_CONTENT_LENGTH)}尾巴`;
    const entry = eventSearchEntry({ ...base, content });
    expect(finds(entry, '尾巴')).toBe(false);
    expect(entry.search_terms).not.toContain('尾');
  });

  it('copies the list filters', () => {
    expect(eventSearchEntry({ ...base, is_priv: true })).toMatchObject({ _id: '500001', is_priv: true, loc_id: '108288', category: 'music', begin: base.begin, end: base.end });
  });
});
