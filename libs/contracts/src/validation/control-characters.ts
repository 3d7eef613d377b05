/**
 * The control characters a stored text may not hold: C0 controls but tab and line ends, and DEL.
 * The note service removes them before storing; the checks at the edge (blank text, banned
 * words) judge a text as it will be stored, so they take the same set from here.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this names
const REMOVED_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function withoutControlCharacters(text: string): string {
  return text.replace(REMOVED_CONTROLS, '');
}

/**
 * A text with something a reader would see: a character that is neither white space nor a
 * control character (the controls not removed, tab and line ends, are white space).
 */
// eslint-disable-next-line no-control-regex -- control characters are what does not count
export const VISIBLE_TEXT = /[^\s\u0000-\u001f\u007f]/;
