import { Clock, systemClock } from './timestamps';

/**
 * `CLOCK_FIXED_AT` (an ISO instant) freezes the service clock, and `CLOCK_OFFSET_MS` shifts it;
 * both are honoured only when NODE_ENV=test, so tests can check time windows (midnight, week
 * boundaries) through the real stack and production can never run on a fake clock.
 */
export function clockFromEnv(config: { NODE_ENV?: string }, env: NodeJS.ProcessEnv = process.env): Clock {
  if (config.NODE_ENV !== 'test') return systemClock;
  const fixed = env.CLOCK_FIXED_AT ? Date.parse(env.CLOCK_FIXED_AT) : NaN;
  const offset = Number(env.CLOCK_OFFSET_MS ?? 0) || 0;
  if (!Number.isNaN(fixed)) return { now: () => new Date(fixed) };
  if (offset !== 0) return { now: () => new Date(Date.now() + offset) };
  return systemClock;
}
