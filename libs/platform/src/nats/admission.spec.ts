import { Admission } from './admission';

describe('Admission (load shedding)', () => {
  it('refuses a caller over its share (running and waiting) with 429, and an instance over its capacity with 503', () => {
    const admission = new Admission({ maxConcurrent: 4, maxPerCaller: 1, maxWaitingPerCaller: 1 });
    expect(admission.admit('user:1')).toBeUndefined();
    expect(admission.admit('user:1')).toBeUndefined();
    expect(admission.admit('user:1')).toMatchObject({ status: 429, code: 111 });
    expect(admission.admit('addr:10.0.0.1')).toBeUndefined();
    expect(admission.admit('addr:10.0.0.1')).toBeUndefined();
    expect(admission.admit('addr:10.0.0.1')).toMatchObject({ status: 429, code: 112 });
    // four in flight: the instance is full for everyone, an unnamed caller included
    expect(admission.admit('user:2')).toMatchObject({ status: 503, code: 1101 });
    expect(admission.admit(undefined)).toMatchObject({ status: 503, code: 1101 });
    expect(admission.inFlight).toBe(4);
  });

  it('gives the places back when handlers finish', () => {
    const admission = new Admission({ maxConcurrent: 2, maxPerCaller: 1, maxWaitingPerCaller: 0 });
    expect(admission.admit('app:x')).toBeUndefined();
    expect(admission.admit('app:x')).toMatchObject({ code: 111 });
    admission.release('app:x');
    expect(admission.admit('app:x')).toBeUndefined();
    expect(admission.admit(undefined)).toBeUndefined();
    expect(admission.admit(undefined)).toMatchObject({ code: 1101 });
    admission.release(undefined);
    admission.release('app:x');
    expect(admission.inFlight).toBe(0);
  });
});
