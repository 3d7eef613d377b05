import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { stackInfo } from '../support/stack-info';
import {
  asTier, Celebrities, CELEBRITY_A_FIELDS, CELEBRITY_B_FIELDS, keysOf, MovieUsers, PHOTO_FIELDS, SIMPLE_SUBJECT_B_FIELDS, sorted, Subjects,
} from './movie-fixtures';

const path = (id: string) => `/v2/movie/celebrity/${id}`;
const works = (id: string) => `/v2/movie/celebrity/${id}/works`;
const photos = (id: string) => `/v2/movie/celebrity/${id}/photos`;
const web = () => `${stackInfo().baseUrl}/web`;
/** Wang's works, newest first: the 2020 movie, the 2019 series, then "星空漫游" 6 (2006) down to 1 (2001). */
const WANG_WORKS = [Subjects.full, Subjects.fullTv, Subjects.star(6), Subjects.star(5), Subjects.star(4), Subjects.star(3), Subjects.star(2), Subjects.star(1)];

describe('GET /v2/movie/celebrity/:id: fields by tier, no premium access', () => {
  it('gives the basic tier the B fields, with at most 5 works as Simple Subjects', async () => {
    const { status, body } = await get(path(Celebrities.wang));
    expect(status).toBe(200);
    expect(keysOf(body)).toEqual(sorted(CELEBRITY_B_FIELDS));
    expect(body.works.map((w: { id: string }) => w.id)).toEqual(WANG_WORKS.slice(0, 5));
    for (const w of body.works) expect(keysOf(w)).toEqual(sorted(SIMPLE_SUBJECT_B_FIELDS));
  });

  it('gives the advance tier the A fields too: summary, website, birthday, professions, constellation and 10 photos', async () => {
    const { body } = await get(path(Celebrities.wang), asTier('advance'));
    expect(keysOf(body)).toEqual(sorted([...CELEBRITY_B_FIELDS, ...CELEBRITY_A_FIELDS]));
    expect(body).toMatchObject({
      id: Celebrities.wang, name: '王一导', name_en: 'Yidao Wang', summary: '导演，编剧。拍过很多关于春天的电影。', aka: ['王导'], aka_en: ['Director Wang'],
      website: 'http://wang.example.test', gender: '男', birthday: '1970-03-21', born_place: '中国,北京', professions: ['导演', '编剧'], constellation: '白羊座',
    });
    expect(body.photos).toHaveLength(10);
    expect(body.photos.map((p: { position: number }) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(body.works).toHaveLength(5);
    expect(body.works[0].pubdates).toEqual(['2020-05-01(中国大陆)', '2020-02-21(柏林电影节)']);
  });

  it('answers the premium tier 404/1001, by apikey or token', async () => {
    expectError(await get(path(Celebrities.wang), asTier('premium')), 404, 1001, `GET ${path(Celebrities.wang)}`);
    expectError(await get(path(Celebrities.wang), { token: await tokenFor(MovieUsers.critic, Apps.premium) }), 404, 1001);
    expect((await get(path(Celebrities.wang), { token: await tokenFor(MovieUsers.critic, Apps.advance) })).status).toBe(200);
  });

  it('fills every default of a celebrity loaded with a name only', async () => {
    const id = Celebrities.minimal;
    expect((await get(path(id), asTier('advance'))).body).toEqual({
      id, name: '简单人', name_en: '', alt: `${web()}/movie/celebrity/${id}/`, mobile_url: `${web()}/m/movie/celebrity/${id}/`,
      avatars: { small: `${web()}/movie/img/celebrity/s/${id}.jpg`, large: `${web()}/movie/img/celebrity/l/${id}.jpg`, medium: `${web()}/movie/img/celebrity/m/${id}.jpg` },
      summary: '', aka: [], aka_en: [], website: '', gender: '', birthday: '', born_place: '', professions: [], constellation: '', photos: [], works: [],
    });
  });

  it('answers 404/1001 for a celebrity that does not exist', async () => {
    expectError(await get(path(Celebrities.missing)), 404, 1001);
    expectError(await get(works(Celebrities.missing), asTier('advance')), 404, 1001);
    expectError(await get(photos(Celebrities.missing), asTier('advance')), 404, 1001);
  });

  it('derives works from the subjects, ignoring works sent in the record', async () => {
    const { body } = await get(path(Celebrities.wang));
    expect(body.works.some((w: { id: string }) => w.id === '9999999')).toBe(false);
  });
});

describe('GET /v2/movie/celebrity/:id/works', () => {
  it('answers the basic tier 404/1001 and advance and premium 200', async () => {
    expectError(await get(works(Celebrities.wang)), 404, 1001);
    expect((await get(works(Celebrities.wang), asTier('advance'))).status).toBe(200);
    expect((await get(works(Celebrities.wang), asTier('premium'))).status).toBe(200);
  });

  it('pages works with their roles, 5 by default, newest first', async () => {
    const { body } = await get(works(Celebrities.wang), asTier('advance'));
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 5, total: 8 });
    expect(body.celebrity).toEqual({
      id: Celebrities.wang, name: '王一导', alt: `${web()}/movie/celebrity/${Celebrities.wang}/`,
      avatars: { small: 'http://img.example.test/celebrity/s/1300001.jpg', large: 'http://img.example.test/celebrity/l/1300001.jpg', medium: 'http://img.example.test/celebrity/m/1300001.jpg' },
    });
    expect(body.works.map((w: { subject: { id: string } }) => w.subject.id)).toEqual(WANG_WORKS.slice(0, 5));
    for (const w of body.works) expect(keysOf(w)).toEqual(['roles', 'subject']);
    // directed and wrote the 2020 movie; only directed the others
    expect(body.works[0].roles).toEqual(['导演', '编剧']);
    expect(body.works[1].roles).toEqual(['导演']);
  });

  it('pages on, and answers count=0 with the true total', async () => {
    const rest = (await get(works(Celebrities.wang), asTier('premium', { start: 5, count: 5 }))).body;
    expect(rest).toMatchObject({ start: 5, count: 3, total: 8 });
    expect(rest.works.map((w: { subject: { id: string } }) => w.subject.id)).toEqual(WANG_WORKS.slice(5));
    expect((await get(works(Celebrities.wang), asTier('advance', { count: 0 }))).body).toMatchObject({ start: 0, count: 0, total: 8, works: [] });
  });

  it('names the role of a writer and of a cast member', async () => {
    expect((await get(works(Celebrities.writer), asTier('advance'))).body.works.map((w: any) => [w.subject.id, w.roles])).toEqual([[Subjects.full, ['编剧']]]);
    // cast of the 2020 movie and of the 2019 series; beyond the 4 shown casts still counts
    expect((await get(works(Celebrities.firstCast), asTier('advance'))).body.works.map((w: any) => [w.subject.id, w.roles])).toEqual([
      [Subjects.full, ['演员']], [Subjects.fullTv, ['演员']],
    ]);
    expect((await get(works('1300007'), asTier('advance'))).body.works.map((w: any) => w.subject.id)).toEqual([Subjects.full]);
  });

  it('applies fields to each work and keeps the envelope', async () => {
    const { body } = await get(works(Celebrities.wang), asTier('advance', { fields: 'roles', count: 2 }));
    expect(body).toMatchObject({ start: 0, count: 2, total: 8, works: [{ roles: ['导演', '编剧'] }, { roles: ['导演'] }] });
    expect(body.celebrity.id).toBe(Celebrities.wang);
  });
});

describe('GET /v2/movie/celebrity/:id/photos', () => {
  it('answers the basic tier 404/1001', async () => {
    expectError(await get(photos(Celebrities.wang)), 404, 1001);
  });

  it('pages the celebrity\'s album, 10 by default', async () => {
    const { body } = await get(photos(Celebrities.wang), asTier('premium'));
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 10, total: 12 });
    expect(body.celebrity.id).toBe(Celebrities.wang);
    const first = body.photos[0];
    expect(keysOf(first)).toEqual(sorted(PHOTO_FIELDS));
    expect(first).toMatchObject({
      id: '2720001', subject_id: Celebrities.wang, desc: '王导 1', album_id: Celebrities.wang, album_title: '王一导的照片',
      album_url: `${web()}/movie/celebrity/${Celebrities.wang}/photos/`, position: 1, prev_photo: '', next_photo: '2720002', photos_count: 12,
    });
    expect(first.author.uid).toBe('film_fan');
    const last = (await get(photos(Celebrities.wang), asTier('advance', { start: 11 }))).body.photos;
    expect(last.map((p: any) => [p.id, p.position, p.next_photo])).toEqual([['2720012', 12, '']]);
  });
});
