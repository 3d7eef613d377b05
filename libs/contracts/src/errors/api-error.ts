import { ErrorName, Errors } from './error-catalogue';

/** The wire shape of an error travelling from a service to the gateway over NATS. */
export interface RpcErrorPayload {
  code: number;
  status: number;
  msg: string;
  /** Human-readable detail for logs and for the `detail` field; never internals. */
  detail?: string;
}

/**
 * The one error type services and the gateway throw for anything a client should see.
 * It carries a catalogue entry, so status, code and msg can never disagree.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly msg: string;

  constructor(readonly errorName: ErrorName, readonly detail?: string) {
    const def = Errors[errorName];
    // A client's error is an answer, not a fault: its stack would only name the line that refused,
    // and capturing it was the largest part of what a refusal cost under a flood
    // (docs/DECISIONS.md, "Limits"). A 5xx keeps its stack for the logs.
    const stackTraceLimit = Error.stackTraceLimit;
    if (def.status < 500) Error.stackTraceLimit = 0;
    try {
      super(detail ? `${def.msg}: ${detail}` : def.msg);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'ApiError';
    this.code = def.code;
    this.status = def.status;
    this.msg = def.msg;
  }

  toPayload(): RpcErrorPayload {
    return { code: this.code, status: this.status, msg: this.msg, ...(this.detail ? { detail: this.detail } : {}) };
  }

  static isPayload(value: unknown): value is RpcErrorPayload {
    if (typeof value !== 'object' || value === null) return false;
    const v = value as Record<string, unknown>;
    return typeof v.code === 'number' && typeof v.status === 'number' && typeof v.msg === 'string';
  }
}
