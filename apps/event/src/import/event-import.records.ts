import { IsCalendarDate, parseEventCategory } from '@plaza/contracts';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateNested } from 'class-validator';

/** Ids are strings of digits; a JSON number is taken as its digits. */
const DigitsId = (): PropertyDecorator => {
  const transform = Transform(({ value }) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value));
  const check = Matches(/^\d{1,18}$/, { message: '$property must be digits' });
  return (target, key) => {
    transform(target, key);
    check(target, key);
  };
};

/** Numbers where text is expected (an album id, say) are taken as text. */
const AsText = () => Transform(({ value }) => (typeof value === 'number' ? String(value) : value));

const YES_NO = ['yes', 'no', true, false];
const UID = /^[A-Za-z0-9_.-]{1,64}$/;
/** `"<lat> <lng>"`: two decimal numbers separated by blanks; ranges checked in the importer. */
const GEO = /^\s*-?\d{1,3}(\.\d+)?\s+-?\d{1,3}(\.\d+)?\s*$/;
const ADDRESS = { message: '$property must be an http(s) address' };
const HTTP = /^https?:\/\/\S+$/;

/** `loc` record: a city (habitable yes) or a region (habitable no); `parent` is the parent region's uid. */
export class LocImportRecord {
  @DigitsId() id!: string;
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @Matches(UID, { message: 'uid must be letters, digits, - _ .' }) uid!: string;
  @IsOptional() @Matches(/^([A-Za-z0-9_.-]{1,64})?$/, { message: 'parent must be a uid' }) parent?: string;
  /** Default yes. */
  @IsOptional() @IsIn(YES_NO) habitable?: 'yes' | 'no' | boolean;
}

export class ImportedOwner {
  @DigitsId() id!: string;
}

/**
 * `event` record: an Event as the API shows it. `owner` is the owner object (only its `id` is
 * read; `owner_id` is accepted instead). `category` is a word or a type number; numbers outside
 * 10-18 are `others`. Counts, `loc_name` and `url` are ignored: the service derives them.
 */
export class EventImportRecord {
  @DigitsId() id!: string;
  @IsString() @MinLength(1) @MaxLength(300) title!: string;
  @IsOptional() @IsString() @MaxLength(50_000) content?: string;
  @IsOptional() @Matches(HTTP, ADDRESS) alt?: string;
  @IsOptional() @Matches(HTTP, ADDRESS) adapt_url?: string;
  @IsOptional() @Matches(HTTP, ADDRESS) image?: string;
  @IsOptional() @Matches(HTTP, ADDRESS) 'image-hlarge'?: string;
  @IsOptional() @Matches(HTTP, ADDRESS) 'image-lmobile'?: string;
  /** `yyyy-MM-dd HH:mm:ss` in SERVICE_TIMEZONE. */
  @IsString() begin_time!: string;
  @IsString() end_time!: string;
  @IsOptional() @ValidateNested() @Type(() => ImportedOwner) owner?: ImportedOwner;
  @IsOptional() @DigitsId() owner_id?: string;
  @IsOptional() @Matches(GEO, { message: 'geo must be "<lat> <lng>"' }) geo?: string;
  @IsOptional() @IsString() @MaxLength(500) address?: string;
  @DigitsId() loc_id!: string;
  @IsOptional() @AsText() @IsString() @MaxLength(100) album?: string;
  @IsOptional() @IsIn(YES_NO) is_priv?: 'yes' | 'no' | boolean;
  @IsOptional() @IsIn(YES_NO) has_invited?: 'yes' | 'no' | boolean;
  @IsOptional() @IsIn(YES_NO) can_invite?: 'yes' | 'no' | boolean;
  @IsDefined()
  @ValidateBy({
    name: 'isEventCategory',
    validator: {
      validate: (v) => parseEventCategory(v) !== undefined || (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d{1,3}$/.test(v)),
      defaultMessage: () => 'category must be a type word (music, drama, ...), others, or a type number',
    },
  })
  category!: string | number;
}

/** `event_participant` record. */
export class EventParticipantImportRecord {
  @DigitsId() event_id!: string;
  @DigitsId() user_id!: string;
  /** `%Y-%m-%d`; absent, null or empty: undecided. */
  @IsOptional() @Transform(({ value }) => (value === '' ? undefined : value)) @IsCalendarDate() participate_date?: string;
}

/** `event_wisher` record. */
export class EventWisherImportRecord {
  @DigitsId() event_id!: string;
  @DigitsId() user_id!: string;
}
