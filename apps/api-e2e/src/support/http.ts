import { stackInfo } from './stack-info';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, otherwise the text. */
  body: T;
  text: string;
}

/** What fetch accepts as a body (Node's types have no DOM `BodyInit`). */
export type RequestBody = NonNullable<RequestInit['body']>;

export interface RequestOptions {
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | number | boolean | undefined>;
  /** Sent as multipart/form-data. */
  multipart?: FormData;
  /** Sent as these bytes, exactly (give the content-type in `headers`). */
  body?: RequestBody;
  headers?: Record<string, string>;
  /** Another gateway replica than the shared one. */
  baseUrl?: string;
  redirect?: RequestInit['redirect'];
}

function urlFor(path: string, options: RequestOptions): string {
  const url = new URL(path, options.baseUrl ?? stackInfo().baseUrl);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** One HTTP request to the gateway, as any client would make it. */
export async function api<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestBody | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form)) if (v !== undefined) params.set(k, String(v));
    body = params.toString();
  } else if (options.multipart) {
    body = options.multipart;
  } else if (options.body !== undefined) {
    body = options.body;
  }
  const response = await fetch(urlFor(path, options), { method, headers, body, redirect: options.redirect ?? 'manual' });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (type.includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const get = <T = any>(path: string, options?: RequestOptions) => api<T>('GET', path, options);
export const post = <T = any>(path: string, options?: RequestOptions) => api<T>('POST', path, options);
export const put = <T = any>(path: string, options?: RequestOptions) => api<T>('PUT', path, options);
export const del = <T = any>(path: string, options?: RequestOptions) => api<T>('DELETE', path, options);

/** Asserts the error shape of docs/api/README.md ("Errors"): `{msg, code, request}` with the right status and code. */
/** Fails the test with the answer's text when its status is not `status` (a step of a test's setup). */
export function expectStatus(response: ApiResponse, status: number): void {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
}

export function expectError(response: ApiResponse, status: number, code: number, requestLine?: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(typeof response.body.msg).toBe('string');
  if (requestLine) expect(response.body.request).toBe(requestLine);
  else expect(response.body.request).toMatch(/^(GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) \/[^?]*$/);
}
