import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToBoolean, ToOptionalInt, validateInput, withError } from './validation-errors';

class CollectionInput {
  @IsDefined() @IsIn(['wish', 'reading', 'read']) status!: string;
  @IsOptional() @IsString() @MaxLength(350, withError('comment_too_long')) comment?: string;
  @IsOptional() @ToOptionalInt() @IsInt() @Min(1) @Max(5) rating?: number;
  @IsOptional() @ToBoolean() private?: boolean;
}

describe('validation errors carry the codes of docs/ERRORS.md', () => {
  it('a missing required value is 400/1002', async () => {
    await expect(validateInput(CollectionInput, {})).rejects.toMatchObject({ code: 1002, status: 400 });
  });

  it('a decorator with its own error gives that code', async () => {
    await expect(validateInput(CollectionInput, { status: 'wish', comment: 'x'.repeat(351) })).rejects.toMatchObject({ code: 6010 });
  });

  it('anything else is 400/1016', async () => {
    await expect(validateInput(CollectionInput, { status: 'wish', rating: '6' })).rejects.toMatchObject({ code: 1016 });
    await expect(validateInput(CollectionInput, { status: { $ne: 1 } })).rejects.toMatchObject({ code: 1016 });
  });

  it('an empty optional number counts as absent; booleans take 1/0', async () => {
    const input = await validateInput(CollectionInput, { status: 'read', rating: '', private: '1' });
    expect(input.rating).toBeUndefined();
    expect(input.private).toBe(true);
  });
});
