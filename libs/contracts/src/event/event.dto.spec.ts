import { ApiError } from '../errors/api-error';
import { validateInput } from '../validation/validation-errors';
import { EVENT_CATEGORIES, EventCategoryLabels, parseEventCategory } from './event-categories';
import { EventListQuery, isCalendarDate, ParticipateBody, UserEventsQuery } from './event.dto';

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    return (err as ApiError).code;
  }
};

describe('parseEventCategory', () => {
  it.each([
    [10, 'music'], ['11', 'drama'], ['exhibition', 'exhibition'], [' Salon ', 'salon'], ['PARTY', 'party'], [15, 'sports'],
    ['16', 'travel'], ['commonweal', 'commonweal'], [18, 'film'], ['others', 'others'],
  ])('%j → %s', (value, expected) => {
    expect(parseEventCategory(value)).toBe(expected);
  });

  it.each([[9], ['19'], ['all'], ['concert'], [''], [null], [undefined], [10.5], ['constructor'], ['__proto__'], ['toString']])('%j is no category', (value) => {
    expect(parseEventCategory(value)).toBeUndefined();
  });

  it('has a Chinese label for every category', () => {
    expect(Object.keys(EventCategoryLabels).sort()).toEqual([...EVENT_CATEGORIES].sort());
    expect(EventCategoryLabels.music).toBe('音乐');
    expect(EventCategoryLabels.others).toBe('其他');
  });
});

describe('isCalendarDate (%Y-%m-%d naming a real day)', () => {
  it.each(['2024-02-29', '2000-02-29', '2099-12-31', '2030-01-01'])('%s is a date', (v) => expect(isCalendarDate(v)).toBe(true));
  it.each(['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '2024-1-5', '20240105', '2024-01-05 10:00:00', ' 2024-01-05', '0000-01-01', 'tomorrow'])(
    '%s is not', (v) => expect(isCalendarDate(v)).toBe(false),
  );
  it('takes only text', () => expect(isCalendarDate(20240105)).toBe(false));
});

describe('input DTOs and their error codes', () => {
  it('EventListQuery: loc missing or empty is 1002; bad day_type or type is 1016; keywords are trimmed and lower-cased', async () => {
    expect(await codeOf(validateInput(EventListQuery, {}))).toBe(1002);
    expect(await codeOf(validateInput(EventListQuery, { loc: '' }))).toBe(1002);
    expect(await codeOf(validateInput(EventListQuery, { loc: '108288', day_type: 'soon' }))).toBe(1016);
    expect(await codeOf(validateInput(EventListQuery, { loc: '108288', type: '19' }))).toBe(1016);
    expect(await codeOf(validateInput(EventListQuery, { loc: '108288', type: ['music', 'film'] }))).toBe(1016);
    const ok = await validateInput(EventListQuery, { loc: '108288', day_type: ' Weekend', type: 'FILM' });
    expect(ok).toEqual({ loc: '108288', day_type: 'weekend', type: 'film' });
    expect(await validateInput(EventListQuery, { loc: '108288', day_type: '', type: '' })).toEqual({ loc: '108288' });
  });

  it('UserEventsQuery: status ongoing or expired, else 1016', async () => {
    expect(await validateInput(UserEventsQuery, { status: 'Expired' })).toEqual({ status: 'expired' });
    expect(await codeOf(validateInput(UserEventsQuery, { status: 'past' }))).toBe(1016);
  });

  it('ParticipateBody: a real date, absent or empty; anything else 1016', async () => {
    expect(await validateInput(ParticipateBody, { participate_date: '2099-11-02' })).toEqual({ participate_date: '2099-11-02' });
    expect((await validateInput(ParticipateBody, { participate_date: '' })).participate_date).toBeUndefined();
    expect((await validateInput(ParticipateBody, {})).participate_date).toBeUndefined();
    expect(await codeOf(validateInput(ParticipateBody, { participate_date: '2099-02-30' }))).toBe(1016);
  });
});
