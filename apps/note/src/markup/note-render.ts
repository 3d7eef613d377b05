import { NoteFormat } from '@plaza/contracts';
import escapeHtml from 'escape-html';
import { MarkupToken, parseNoteMarkup } from './note-markup';

/** `abstract`, `summary` and `html_short` show this many characters (docs/api/note.md). */
export const ABSTRACT_LENGTH = 100;
export const CUT_MARK = '...';

/** Addresses of a note's pictures by number; a picture without an address is not shown. */
export type PictureAddresses = ReadonlyMap<number, string>;

/** What a note shows in `content` for a format, and its `summary`. */
export function renderNoteContent(content: string, format: NoteFormat, pictures: PictureAddresses): string {
  switch (format) {
    case 'text':
      return content;
    case 'html_full':
      return renderHtml(parseNoteMarkup(content), pictures);
    case 'html_short': {
      const { tokens, cut } = abridge(parseNoteMarkup(content));
      return renderHtml(tokens, pictures) + (cut ? CUT_MARK : '');
    }
    case 'abstract':
      return noteAbstract(content);
  }
}

/**
 * The first ABSTRACT_LENGTH characters of the text without markup, with `...` when cut: pictures
 * are left out, a link shows its title (its address when untitled), and anything a user typed that
 * looks like HTML is just text.
 */
export function noteAbstract(content: string): string {
  const { tokens, cut } = abridge(parseNoteMarkup(content));
  return tokens.map(plainText).join('') + (cut ? CUT_MARK : '');
}

/**
 * HTML built only from escaped text and the elements the markup stands for: a line break per
 * newline, a figure per picture, an anchor per link (whose address is always http or https,
 * see safeLinkAddress). Nothing the user wrote reaches the output unescaped.
 */
export function renderHtml(tokens: MarkupToken[], pictures: PictureAddresses): string {
  return tokens
    .map((token) => {
      switch (token.kind) {
        case 'text':
          return textHtml(token.text);
        case 'url':
          return `<a href="${escapeHtml(token.href)}" rel="nofollow noopener noreferrer" target="_blank">${textHtml(token.title || token.href)}</a>`;
        case 'img': {
          const src = pictures.get(token.number);
          if (src === undefined) return '';
          const caption = token.caption ? `<figcaption>${escapeHtml(token.caption)}</figcaption>` : '';
          return `<figure class="note-photo note-photo-${token.layout}"><img src="${escapeHtml(src)}" alt="${escapeHtml(token.caption)}">${caption}</figure>`;
        }
      }
    })
    .join('');
}

function textHtml(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}

function plainText(token: MarkupToken): string {
  switch (token.kind) {
    case 'text':
      return token.text;
    case 'url':
      return token.title || token.href;
    case 'img':
      return '';
  }
}

/**
 * The tokens of the abstract: pictures dropped, leading and trailing blanks trimmed, cut after
 * ABSTRACT_LENGTH characters (code points, so a character outside the BMP is never split).
 * A link cut midway keeps its address and shows the part of its title that fits.
 */
export function abridge(tokens: MarkupToken[], limit = ABSTRACT_LENGTH): { tokens: MarkupToken[]; cut: boolean } {
  const shown: Array<Exclude<MarkupToken, { kind: 'img' }>> = [];
  for (const token of tokens) {
    if (token.kind === 'text') shown.push({ ...token });
    else if (token.kind === 'url') shown.push({ ...token, title: token.title || token.href });
  }
  const textOf = (t: (typeof shown)[number]) => (t.kind === 'text' ? t.text : t.title);
  const setText = (t: (typeof shown)[number], value: string) => (t.kind === 'text' ? (t.text = value) : (t.title = value));

  // trim the whole: blanks at the start of the first pieces and the end of the last ones
  while (shown.length > 0 && textOf(shown[0]).trimStart() === '') shown.shift();
  if (shown.length > 0) setText(shown[0], textOf(shown[0]).trimStart());
  while (shown.length > 0 && textOf(shown[shown.length - 1]).trimEnd() === '') shown.pop();
  if (shown.length > 0) setText(shown[shown.length - 1], textOf(shown[shown.length - 1]).trimEnd());

  const result: MarkupToken[] = [];
  let left = limit;
  for (const token of shown) {
    const { head, length, whole } = firstCodePoints(textOf(token), left);
    if (whole) {
      result.push(token);
      left -= length;
      continue;
    }
    if (left > 0) {
      setText(token, head);
      result.push(token);
    }
    return { tokens: result, cut: true };
  }
  return { tokens: result, cut: false };
}

/** The first `n` code points of a text, read no further than needed (a note may hold 100 000 characters). */
function firstCodePoints(text: string, n: number): { head: string; length: number; whole: boolean } {
  let length = 0;
  let end = 0;
  for (const char of text) {
    if (length === n) return { head: text.slice(0, end), length, whole: false };
    length++;
    end += char.length;
  }
  return { head: text, length, whole: true };
}
