import { Transform, Type } from 'class-transformer';
import { IsArray, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';

/** Numbers where the API shows text (`pages: 320`) are taken as their text. */
const AsText = () => Transform(({ value }) => (typeof value === 'number' ? String(value) : value));
/** `average` is text in the API ("8.5") but may come as a number; empty means unrated. */
const AsNumber = () => Transform(({ value }) => (value === '' || value === null ? 0 : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value));

const ID = /^\d{1,18}$/;
const TEXT = 20_000;

export class ImportRating {
  @IsOptional() @IsInt() max?: number;
  @IsOptional() @IsInt() @Min(0) numRaters?: number;
  @IsOptional() @AsNumber() @IsNumber() @Min(0) @Max(10) average?: number;
  @IsOptional() @IsInt() min?: number;
}

export class ImportTag {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsInt() @Min(0) count!: number;
}

export class ImportImages {
  @IsOptional() @IsString() @MaxLength(2000) small?: string;
  @IsOptional() @IsString() @MaxLength(2000) large?: string;
  @IsOptional() @IsString() @MaxLength(2000) medium?: string;
}

export class ImportSeriesRef {
  @AsText() @Matches(ID) id!: string;
  @IsOptional() @IsString() @MaxLength(500) title?: string;
}

/** `book` import record: a Book as the API shows it (docs/api/import.md); `url`/`alt` may be absent. */
export class BookImportRecord {
  @AsText() @Matches(ID, { message: 'id must be digits' }) id!: string;
  @IsOptional() @AsText() @IsString() @MaxLength(20) isbn10?: string;
  @IsOptional() @AsText() @IsString() @MaxLength(20) isbn13?: string;
  @IsString() @MinLength(1) @MaxLength(500) title!: string;
  @IsOptional() @IsString() @MaxLength(500) origin_title?: string;
  @IsOptional() @IsString() @MaxLength(500) alt_title?: string;
  @IsOptional() @IsString() @MaxLength(500) subtitle?: string;
  @IsOptional() @IsString() @MaxLength(2000) url?: string;
  @IsOptional() @IsString() @MaxLength(2000) alt?: string;
  @IsOptional() @IsString() @MaxLength(2000) image?: string;
  @IsOptional() @ValidateNested() @Type(() => ImportImages) images?: ImportImages;
  @IsOptional() @IsArray() @IsString({ each: true }) @MaxLength(200, { each: true }) author?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) @MaxLength(200, { each: true }) translator?: string[];
  @IsOptional() @IsString() @MaxLength(500) publisher?: string;
  @IsOptional() @AsText() @IsString() @MaxLength(100) pubdate?: string;
  @IsOptional() @ValidateNested() @Type(() => ImportRating) rating?: ImportRating;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ImportTag) tags?: ImportTag[];
  @IsOptional() @IsString() @MaxLength(100) binding?: string;
  @IsOptional() @AsText() @IsString() @MaxLength(100) price?: string;
  @IsOptional() @ValidateNested() @Type(() => ImportSeriesRef) series?: ImportSeriesRef;
  @IsOptional() @AsText() @IsString() @MaxLength(100) pages?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) author_intro?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) summary?: string;
  @IsOptional() @IsString() @MaxLength(TEXT) catalog?: string;
  @IsOptional() @IsString() @MaxLength(2000) ebook_url?: string;
  @IsOptional() @AsText() @IsString() @MaxLength(100) ebook_price?: string;
}

/** `series` import record. */
export class SeriesImportRecord {
  @AsText() @Matches(ID, { message: 'id must be digits' }) id!: string;
  @IsString() @MinLength(1) @MaxLength(500) title!: string;
}
