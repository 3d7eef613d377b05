import { MovieLinks } from '../common/links';
import { creditsOf, renderSearchEntry, renderSimpleSubject, renderSubject, SubjectRecord } from './subject.render';

const links = new MovieLinks('http://web.test/w/');
const person = (id: string) => ({ id, name: `p${id}` });

describe('renderSubject', () => {
  it('applies the defaults of a movie: null for the tv-only counts, an empty schedule_url', () => {
    const s = renderSubject({ id: '1', title: 'T' } as SubjectRecord, links);
    expect(s).toMatchObject({
      original_title: '', aka: [], alt: 'http://web.test/w/movie/subject/1/', mobile_url: 'http://web.test/w/m/movie/subject/1/',
      rating: { min: 0, max: 10, average: 0, stars: 0 }, subtype: 'movie', do_count: null, seasons_count: null, current_season: null,
      episodes_count: null, schedule_url: '', service_site: '', pubdate: '', mainland_pubdate: '', photos: [], popular_reviews: [],
    });
    expect(s.images).toEqual({ small: 'http://web.test/w/movie/img/subject/s/1.jpg', large: 'http://web.test/w/movie/img/subject/l/1.jpg', medium: 'http://web.test/w/movie/img/subject/m/1.jpg' });
  });

  it('applies the defaults of tv: 0 for its counts, never a schedule_url', () => {
    const s = renderSubject({ id: '1', title: 'T', subtype: 'tv', schedule_url: 'http://x', episodes_count: 12 } as SubjectRecord, links);
    expect([s.do_count, s.seasons_count, s.current_season, s.episodes_count, s.schedule_url]).toEqual([0, 0, 0, 12, '']);
  });

  it('ignores the tv-only counts of a movie', () => {
    const s = renderSubject({ id: '1', title: 'T', do_count: 5, seasons_count: 2 } as SubjectRecord, links);
    expect([s.do_count, s.seasons_count]).toEqual([null, null]);
  });

  it('cuts casts to 4, genres to 3 and video urls to 4, keeping the first ones', () => {
    const urls = ['a', 'b', 'c', 'd', 'e'];
    const s = renderSubject({
      id: '1', title: 'T', casts: ['1', '2', '3', '4', '5', '6'].map(person), genres: ['g1', 'g2', 'g3', 'g4'],
      trailer_urls: urls, clip_urls: urls, blooper_urls: urls.slice(0, 2), directors: ['7', '8', '9', '10', '11'].map(person),
    } as SubjectRecord, links);
    expect(s.casts.map((c) => c.id)).toEqual(['1', '2', '3', '4']);
    expect(s.genres).toEqual(['g1', 'g2', 'g3']);
    expect([s.trailer_urls, s.clip_urls, s.blooper_urls]).toEqual([['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd'], ['a', 'b']]);
    expect(s.directors).toHaveLength(5);
  });

  it('mirrors mainland_pubdate in pubdate, falling back to a record\'s pubdate', () => {
    expect(renderSubject({ id: '1', title: 'T', mainland_pubdate: '2020', pubdate: '1999' } as SubjectRecord, links).pubdate).toBe('2020');
    const old = renderSubject({ id: '1', title: 'T', pubdate: '1999' } as SubjectRecord, links);
    expect([old.mainland_pubdate, old.pubdate]).toEqual(['1999', '1999']);
  });

  it('takes the branded douban_site as service_site when that is absent', () => {
    expect(renderSubject({ id: '1', title: 'T', douban_site: 'd' } as SubjectRecord, links).service_site).toBe('d');
    expect(renderSubject({ id: '1', title: 'T', douban_site: 'd', service_site: 's' } as SubjectRecord, links).service_site).toBe('s');
  });

  it('fills a partly given images object size by size', () => {
    expect(renderSimpleSubject({ id: '2', title: 'T', images: { large: 'L' } } as SubjectRecord, links).images)
      .toEqual({ small: 'http://web.test/w/movie/img/subject/s/2.jpg', large: 'L', medium: 'http://web.test/w/movie/img/subject/m/2.jpg' });
  });
});

describe('renderSearchEntry', () => {
  it('indexes titles, aka and tags (not the summary); tags and genres as whole normalised keys', () => {
    const r = { id: '1', title: '春天的故事', original_title: 'Spring', aka: ['Tale'], tags: ['Sci-Fi'], genres: ['剧情', 'Sci-Fi'], summary: 'hidden words', ratings_count: 7 } as SubjectRecord;
    const entry = renderSearchEntry(r);
    expect(entry.search_terms).toEqual(expect.arrayContaining(['故事', 'spring', 'tale', 'sci', 'fi']));
    expect(entry.search_terms).not.toContain('hidden');
    expect(entry.tag_keys).toEqual(['sci-fi', '剧情']);
    expect(entry).toMatchObject({ _id: '1', title: '春天的故事', original_title: 'Spring', aka: ['Tale'], tags: ['Sci-Fi'], ratings_count: 7 });
  });
});

describe('creditsOf', () => {
  it('gives each celebrity its roles in a fixed order, casts past the fourth included', () => {
    const credits = creditsOf({ id: '1', title: 'T', directors: [person('1')], writers: [person('1'), person('2')], casts: ['3', '4', '5', '6', '2'].map(person) } as SubjectRecord);
    expect(Object.fromEntries(credits)).toEqual({ 1: ['导演', '编剧'], 2: ['编剧', '演员'], 3: ['演员'], 4: ['演员'], 5: ['演员'], 6: ['演员'] });
    expect(creditsOf(null).size).toBe(0);
  });
});
