import { importedUser, importTime } from './import-fields';

describe('import fields', () => {
  it('reads a time in the service zone or as ISO 8601, and refuses anything else', () => {
    expect(importTime('2024-04-02 18:02:45', 'created', 'Asia/Shanghai').toISOString()).toBe('2024-04-02T10:02:45.000Z');
    expect(importTime('2024-04-02T18:02:45+08:00', 'created', 'Asia/Shanghai').toISOString()).toBe('2024-04-02T10:02:45.000Z');
    expect(() => importTime('yesterday', 'publish_time', 'Asia/Shanghai')).toThrow('publish_time is not a timestamp (yyyy-MM-dd HH:mm:ss or ISO 8601)');
    expect(() => importTime('on 2024-04-02T18:02:45', 'created', 'Asia/Shanghai')).toThrow('created is not a timestamp');
  });

  it('finds a resolved user by its reference, and names the role of a missing one', () => {
    const ida = { id: '4001', uid: 'ida', name: 'Ida' } as never;
    const users = new Map([['4001', ida], ['ida', ida]]);
    expect(importedUser(users, 'ida', 'author')).toBe(ida);
    expect(() => importedUser(users, '4999', 'author')).toThrow('unknown author 4999');
    expect(() => importedUser(users, undefined, 'user')).toThrow(/^unknown user$/);
  });
});
