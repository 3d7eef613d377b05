import { IsInt, IsString, Min, validate } from 'class-validator';
import { cacheValidationMetadata } from './metadata-cache';

class Base {
  @IsString() name!: string;
}

describe('cached validation metadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('validates as before, inherited rules included, on every call', async () => {
    class Child extends Base {
      @IsInt() @Min(1) count!: number;
    }
    for (let i = 0; i < 3; i++) {
      expect(await validate(Object.assign(new Child(), { name: 'x', count: 2 }))).toHaveLength(0);
      expect((await validate(Object.assign(new Child(), { name: 1, count: 0 }))).map((e) => e.property).sort()).toEqual(['count', 'name']);
    }
  });

  it('sees the rules of a class defined after the first validation', async () => {
    expect(await validate(Object.assign(new Base(), { name: 'x' }))).toHaveLength(0);
    class Later extends Base {
      @Min(10) size!: number;
    }
    expect((await validate(Object.assign(new Later(), { name: 'x', size: 1 }))).map((e) => e.property)).toEqual(['size']);
  });
});
