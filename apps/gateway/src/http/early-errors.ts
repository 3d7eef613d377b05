import { ApiError } from '@plaza/contracts';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests Node's HTTP parser rejects never reach fastify, and Node answers them with a bare
 * status line. This handler keeps the `{msg, code, request}` of docs/api/README.md ("Errors") and the security headers
 * for them too (router-level refusals are in framework-errors.ts).
 */

/** The longest path echoed in `request` when Node's parser rejected the request (it may be 16 KiB). */
const ECHOED_PATH_MAX = 200;

/** `"METHOD /path"` from the raw bytes of a request Node could not parse, best effort. */
function requestLineOf(raw: unknown): string {
  const match = /^([A-Z]{1,20}) ([^ ?\r\n]*)/.exec(Buffer.isBuffer(raw) ? raw.toString('latin1', 0, 4096) : '');
  if (!match) return '';
  // the bytes as a client would have had to escape them, so the body stays printable ASCII
  const path = match[2].slice(0, ECHOED_PATH_MAX).replace(/[^\x21-\x7e]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
  return `${match[1]} ${path}`;
}

/**
 * Node's HTTP parser (`clientError`): headers or URL over 16 KiB are 413/1103 (request too
 * large, as for bodies); bytes that are not HTTP (raw 0xFF in a path, a control character in a
 * header) or a request not sent in time are 400/1016. The connection is closed afterwards.
 */
export function clientErrorHandler(security: Record<string, string>) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket & { _httpMessage?: { headersSent?: boolean } }): void => {
    // as Node's own handler: nothing can be written once a response on this socket has begun
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || socket._httpMessage?.headersSent) return void socket.destroy();
    const error = err.code === 'HPE_HEADER_OVERFLOW' ? new ApiError('request_too_large') : new ApiError('invalid_args');
    const body = JSON.stringify({ msg: error.msg, code: error.code, request: requestLineOf(err.rawPacket) });
    const headers: Record<string, string | number> = {
      ...security,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
    socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head}\r\n\r\n${body}`);
  };
}
