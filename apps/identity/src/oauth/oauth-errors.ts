import { ApiError, ErrorName } from '@plaza/contracts';

/** A failure that the authorize endpoint reports by redirecting back to the client (RFC 6749 4.1.2.1). */
export class RedirectableError extends Error {
  constructor(readonly error: string, readonly description: string) {
    super(description);
  }
}

export const fail = (name: ErrorName, detail?: string): never => {
  throw new ApiError(name, detail);
};
