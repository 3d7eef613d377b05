import { validateInput } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import { readRequestBody, UploadedFile } from '../../pictures/multipart-body';
import { pictureNumber } from '../../pictures/picture-uploads';

export interface BookWriteBody<T> {
  input: T;
  /** Picture parts named `1`, `2`... or `pic1`, `pic2`...; other file parts are ignored. */
  pictures: Array<UploadedFile & { number: number }>;
}

/** A write's body (JSON, form or multipart), validated against its DTO before anything is stored. */
export async function readBookWrite<T extends object>(request: FastifyRequest, dto: new () => T): Promise<BookWriteBody<T>> {
  const { fields, files } = await readRequestBody(request);
  const input = await validateInput(dto, fields);
  const pictures = files.flatMap((file) => {
    const number = pictureNumber(file.field, ['pic', '']);
    return number === undefined ? [] : [{ ...file, number }];
  });
  return { input, pictures };
}
