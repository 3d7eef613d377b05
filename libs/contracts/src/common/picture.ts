import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';

export const PictureFormats = ['jpeg', 'png', 'gif', 'bmp'] as const;
export type PictureFormat = (typeof PictureFormats)[number];

/**
 * A picture the gateway has checked (size, format from the bytes) and stored in the object
 * store, referenced in a write message. The bytes never travel in NATS messages.
 */
export class PictureRef {
  /** The picture number the client gave it (`1`, `pic1`, `image_2` → 1, 1, 2). */
  @IsInt() @Min(1) @Max(1000) number!: number;
  /** Object-store key, `<area>-<32 hex>`. */
  @IsString() @Matches(/^[a-z]+-[0-9a-f]{32}$/) key!: string;
  @IsIn(PictureFormats) format!: PictureFormat;
  @IsInt() @Min(1) size!: number;
  @IsInt() @Min(1) width!: number;
  @IsInt() @Min(1) height!: number;
}
