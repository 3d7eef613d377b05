import { MAX_PICTURE_BYTES } from '@plaza/pictures';
import { ApiError, validateInput } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';

export interface UploadedFile {
  /** The part's name as the client sent it (`1`, `pic2`, `image_p_3`...). */
  field: string;
  bytes: Buffer;
}

export interface RequestBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * Limits for multipart bodies, enforced while streaming (busboy): a picture part above 3 MiB
 * stops the upload with 400/1003; bombs of many parts or huge headers stop with 413.
 */
export const MULTIPART_LIMITS = {
  fileSize: MAX_PICTURE_BYTES - 1,
  files: 10,
  fields: 100,
  parts: 110,
  fieldSize: 200 * 1024,
  headerPairs: 50,
  fieldNameSize: 100,
};

/**
 * A write's body, whichever of JSON, form or multipart the client used (docs/api/README.md):
 * text fields as strings, picture parts as bytes. Repeated fields and non-text JSON values are
 * rejected (400/1016) so no array or object can reach a service as a "string".
 */
export async function readRequestBody(request: FastifyRequest): Promise<RequestBody> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (bytes.length > 0) files.push({ field: part.fieldname, bytes });
        } else {
          if (Object.prototype.hasOwnProperty.call(fields, part.fieldname)) throw new ApiError('invalid_args', `${part.fieldname} given twice`);
          fields[part.fieldname] = String(part.value);
        }
      }
    } catch (err) {
      // limits (FST_*) keep their own codes; busboy's plain errors ("Boundary not found",
      // "Unexpected end of multipart data") are a malformed body, not a server fault (also found by the fuzzer)
      if (err instanceof ApiError || (err as { code?: string }).code?.startsWith('FST_')) throw err;
      throw new ApiError('invalid_args', 'malformed multipart body');
    }
    return { fields, files };
  }
  const body = request.body;
  if (body === undefined || body === null) return { fields, files };
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_args', 'the body must be an object');
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') fields[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') fields[key] = String(value);
    else if (Array.isArray(value) && key === 'tags' && value.every((v) => typeof v === 'string')) fields[key] = value.join(' ');
    else throw new ApiError('invalid_args', `${key} must be text`);
  }
  return { fields, files };
}

/** The text fields of a body with no pictures, validated against their DTO (400 before anything is sent on). */
export async function readTextBody<T extends object>(request: FastifyRequest, dto: new () => T): Promise<T> {
  return validateInput(dto, (await readRequestBody(request)).fields);
}
