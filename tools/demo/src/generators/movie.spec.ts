import { CatalogueRecord, DEMO_SIZE } from '../catalogue';
import { Random } from '../random';
import { movieGenerator } from './movie';

const generate = (movies: number, celebrities: number, seed = 7) => [...movieGenerator(new Random(seed), { ...DEMO_SIZE, movies, celebrities })];
const byKind = (records: CatalogueRecord[], kind: string) => records.filter((r) => r.kind === kind);
type Credit = { id: string; name: string };
const creditsOf = (movie: CatalogueRecord) => [...(movie.directors as Credit[]), ...(movie.casts as Credit[]), ...(movie.writers as Credit[])];

describe('demo movies', () => {
  it('is deterministic', () => {
    expect(generate(50, 100)).toEqual(generate(50, 100));
    expect(generate(50, 100, 8)).not.toEqual(generate(50, 100));
  });

  it.each([
    [200, 1500],
    [30, 100],
    // fewer celebrities than the credit window (40 either side) is wide: credits wrap around
    [30, 20],
    [10, 1],
  ])('credits %i subjects only with existing celebrities (of %i), each at most once per role', (movies, celebrities) => {
    const records = generate(movies, celebrities);
    const subjects = byKind(records, 'movie');
    expect(subjects).toHaveLength(movies);
    const people = new Map(byKind(records, 'celebrity').map((c) => [c.id, c.name]));
    expect(people.size).toBe(celebrities);
    for (const subject of subjects) {
      expect((subject.directors as Credit[]).length).toBeGreaterThanOrEqual(1);
      for (const credit of creditsOf(subject)) expect(people.get(credit.id)).toBe(credit.name);
      for (const role of ['directors', 'casts', 'writers']) {
        const ids = (subject[role] as Credit[]).map((c) => c.id);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });

  it('makes subjects without credits when there are no celebrities', () => {
    const subjects = byKind(generate(10, 0), 'movie');
    expect(subjects).toHaveLength(10);
    for (const subject of subjects) expect(creditsOf(subject)).toEqual([]);
  });
});
