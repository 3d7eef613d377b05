import { plainToInstance, Transform } from 'class-transformer';
import { validate, ValidationError, ValidationOptions } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { ErrorName } from '../errors/error-catalogue';

/**
 * Attaches a catalogue error to a validation decorator, so one DTO class yields the same
 * specific code at the gateway edge and at the consuming service:
 * `@MaxLength(350, withError('comment_too_long'))`.
 */
export function withError(error: ErrorName, options: ValidationOptions = {}): ValidationOptions {
  return { ...options, context: { error } };
}

const MISSING_CONSTRAINTS = ['isDefined', 'isNotEmpty'];

function firstFailure(errors: ValidationError[], path = ''): { property: string; constraint: string; error?: ErrorName } | undefined {
  for (const e of errors) {
    const constraints = Object.keys(e.constraints ?? {});
    if (constraints.length > 0) {
      const missing = constraints.find((c) => MISSING_CONSTRAINTS.includes(c));
      const chosen = missing ?? constraints[0];
      const error = (e.contexts?.[chosen] as { error?: ErrorName } | undefined)?.error;
      return { property: `${path}${e.property}`, constraint: chosen, error };
    }
    const nested = firstFailure(e.children ?? [], `${path}${e.property}.`);
    if (nested) return nested;
  }
  return undefined;
}

/** The one ApiError a failed validation becomes: the decorator's own code, else 1002 for a missing value, else 1016. */
export function validationErrorsToApiError(errors: ValidationError[]): ApiError {
  const failure = firstFailure(errors);
  if (!failure) return new ApiError('invalid_args');
  const fallback: ErrorName = MISSING_CONSTRAINTS.includes(failure.constraint) ? 'missing_args' : 'invalid_args';
  return new ApiError(failure.error ?? fallback, `${failure.property}: ${failure.constraint}`);
}

/**
 * Numbers sent as form fields arrive as text. An empty string counts as absent (clients send
 * `rating=` for "no rating"); anything that is not an integer stays as is, so @IsInt rejects it.
 */
export function ToOptionalInt(): PropertyDecorator {
  return Transform(({ value }) => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) return Number(value.trim());
    return value;
  });
}

/** `true/false` and `1/0` (docs/api/README.md); anything else is left for @IsBoolean to reject. */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'boolean') return value;
    const v = String(value).trim().toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    return value;
  });
}

/**
 * Validates plain input (a form or multipart body read by hand) against a DTO class with the
 * same rules and error codes as the global validation pipe.
 */
export async function validateInput<T extends object>(cls: new () => T, plain: unknown): Promise<T> {
  const instance = plainToInstance(cls, plain ?? {});
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: false } });
  if (errors.length > 0) throw validationErrorsToApiError(errors);
  return instance;
}
