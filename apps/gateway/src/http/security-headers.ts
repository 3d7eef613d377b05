import helmet, { HelmetOptions } from 'helmet';

/**
 * The security headers every response carries, decided by helmet once at start-up and then
 * applied as a constant object: helmet's middleware re-parses its policy on every request, which
 * cost a tenth of the hottest read path.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failure: unknown;
  helmet(options)({} as never, response as never, (err?: unknown) => (failure = err));
  if (failure) throw failure;
  return headers;
}
