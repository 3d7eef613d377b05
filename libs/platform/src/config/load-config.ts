import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

/** Thrown at start-up when the environment is wrong; the message lists every problem at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((c) => `${prefix}${c}`),
    ...describe(e.children ?? [], `${prefix}${e.property}.`),
  ]);
}

/**
 * Reads and validates configuration from the environment into a typed class, failing fast
 * with a clear message (a wrong env var must fail at boot, not at the first request).
 * Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const config = plainToInstance(cls, raw, { enableImplicitConversion: true, excludeExtraneousValues: false });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) throw new ConfigError(describe(errors));
  // keep only declared properties: the rest of process.env is not configuration
  const declared = new cls();
  for (const key of Object.keys(config)) {
    if (!(key in declared)) delete (config as Record<string, unknown>)[key];
  }
  return config;
}

/** Parses `true/false/1/0/yes/no` the way the API's boolean parameters do (docs/api/README.md, "Requests"). */
export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return undefined;
}
