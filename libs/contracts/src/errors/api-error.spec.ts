import { ApiError } from './api-error';

describe('ApiError', () => {
  it("carries the catalogue's status, code and msg", () => {
    expect(new ApiError('rate_limit_exceeded1', 'too many')).toMatchObject({ status: 429, code: 111, msg: 'rate_limit_exceeded1', detail: 'too many' });
  });

  it('captures no stack for a client error (an answer, not a fault) and keeps it for a 5xx', () => {
    const frames = (error: Error) => (error.stack ?? '').split('\n').filter((line) => line.trim().startsWith('at ')).length;
    expect(frames(new ApiError('book_not_found'))).toBe(0);
    expect(frames(new ApiError('internal_error'))).toBeGreaterThan(0);
    // and leaves the limit as it found it
    expect(frames(new Error('other'))).toBeGreaterThan(0);
  });
});
