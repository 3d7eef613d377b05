import { ValidateBy, ValidationOptions } from 'class-validator';
import { withoutControlCharacters } from './control-characters';
import { withError } from './validation-errors';

/**
 * Compatibility forms (full-width letters, ligatures) and case do not hide a word, nor do
 * characters nobody sees: the control characters removed before storing a text and format
 * characters such as zero-width spaces and soft hyphens.
 */
const normalize = (text: string) => withoutControlCharacters(text.normalize('NFKC')).replace(/\p{Cf}/gu, '').toLowerCase();

/**
 * The words user-written text may not contain (docs/api/README.md: `BANNED_WORDS_FILE`,
 * code 1004; empty by default). Each process loads the list once at start-up with `use()`;
 * the DTO decorator below then checks every text field it marks, at the gateway edge and again
 * in the service that consumes the message.
 */
export const BannedWords = {
  words: [] as string[],

  use(words: string[]): void {
    this.words = [...new Set(words.map((w) => normalize(w).trim()).filter((w) => w.length > 0))];
  },

  /** The first banned word inside `text`, if any. */
  foundIn(text: string): string | undefined {
    if (this.words.length === 0) return undefined;
    const haystack = normalize(text);
    return this.words.find((w) => haystack.includes(w));
  },
};

/** Rejects a text containing a banned word with 400/1004 `has_ban_word`. */
export function NoBannedWords(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    {
      name: 'noBannedWords',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || BannedWords.foundIn(value) === undefined,
        defaultMessage: () => 'contains a banned word',
      },
    },
    withError('has_ban_word', options),
  );
}
