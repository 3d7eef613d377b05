import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the gateway's old generation grow past what the last full collection left
 * live before it marks again: 200 % (three times the live heap) where V8 picks about 50 % on its
 * own for a heap this small (about 35 MB live).
 *
 * V8 starts marking once the room left under that limit is smaller than the young generation
 * (16 MB semi-spaces). With about 18 MB of room, a few MB promoted from requests that outlive two
 * scavenges started a full collection under a list's load one to two times a second; while marking
 * runs, every pointer write pays a barrier and the helper thread marks beside the event loop.
 * With 200 % the gateway spent about 13 % less CPU on a user's list page (docs/PERFORMANCE.md,
 * "The gateway's old generation"). Only the gateway: a service's heap holds its read models, which grow
 * with the catalogue, and three times those would not fit its pod.
 *
 * Read by V8 at each full collection, so setting it as the process starts applies it to the
 * first. `--max-old-space-size` still bounds it: V8 never sets the limit above halfway from the
 * live heap to that maximum (the gateway's pods set it, as do docker-compose.yml and the
 * local stack: GATEWAY_V8_FLAGS in tools/stack).
 */
export const HEAP_GROWING_PERCENT = 200;

/**
 * Sets V8's heap growing factor for this process, unless the command line already names one
 * (an operator's `node --heap-growing-percent=N` wins). Returns the percent in effect when it
 * set it, undefined when it left the command line's.
 */
export function applyHeapGrowth(execArgv: readonly string[] = process.execArgv): number | undefined {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return undefined;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
