import { ApiError, NotePictureLayout, withoutControlCharacters } from '@plaza/contracts';
import { decodeHtmlEntities, safeLinkAddress } from './safe-url';

/**
 * Note content markup (docs/api/note.md, "Content markup"): the stored form, and the `text` format, is
 * plain text with two elements:
 *
 *   [img=N:L]caption[/img]     picture number N of the note, layout L, C or R
 *   [url="address"]title[/url] a link to an http(s) address
 *
 * Everything else is text. Input may also use the forms clients send (docs/api/note.md): `<图片p_N>` / `<图片 p_N="">` picture references, HTML anchors, bare addresses and
 * loose `[url=...]` markup; `normalizeNoteContent` turns them into the stored form.
 */
export type MarkupToken =
  | { kind: 'text'; text: string }
  | { kind: 'img'; number: number; layout: NotePictureLayout; caption: string }
  | { kind: 'url'; href: string; title: string };

/** Layout and caption a picture reference takes. */
export interface PictureText {
  layout: NotePictureLayout;
  caption: string;
}

/**
 * Openings of the elements. Their closing tags are found with `NextMatch`, never with a lazy
 * `.*?` per opening: content may hold 100 000 characters, is parsed on every read, and content
 * full of unclosed tags must cost linear time, not quadratic.
 */
const IMG_OPEN = String.raw`\[img=(\d{1,4}):([LCR])\]`;
const URL_OPEN = String.raw`\[url="([^"]{0,2100})"\]`;
/** Input only: `[url='a']`, `[url=a]`, `[url]`, picture tags, anchors, bare addresses. */
const LOOSE_URL_OPEN = String.raw`\[url=(?:'([^'\]]{0,2100})'|([^\]\["'\s][^\]\[\s]{0,2100}))\]`;
const PLAIN_URL_OPEN = String.raw`\[url\]`;
const PICTURE_TAG = String.raw`<图片\s*p_(\d{1,4})(?:\s*=\s*(?:"[^"<>]{0,100}"|'[^'<>]{0,100}'))?\s*\/?>`;
const ANCHOR_OPEN = String.raw`<a(\s[^<>]{0,2100})?>`;
/** A bare address: ASCII address characters only, so it ends at CJK text, quotes and brackets. */
const BARE_ADDRESS = String.raw`https?:\/\/[A-Za-z0-9\-._~:/?#@!$&()*+,;=%]+`;

/**
 * Replaces `[` where it would open or close an element the user did not mean. Replacing (never
 * removing) a character cannot make a new tag, so one pass is enough.
 */
const FULL_WIDTH_BRACKET = '［';

const STORED_OPENINGS = new RegExp(`${IMG_OPEN}|${URL_OPEN}`, 'g');
const INPUT_OPENINGS = new RegExp(
  [IMG_OPEN, URL_OPEN, LOOSE_URL_OPEN, PLAIN_URL_OPEN, PICTURE_TAG, ANCHOR_OPEN, BARE_ADDRESS].map((p) => `(${p})`).join('|'),
  'gi',
);

/**
 * The first match of a closing tag at or after a position. Openings are visited left to right,
 * and the answer stays right for every position up to it, so a whole scan searches each stretch
 * of the text once.
 */
class NextMatch {
  private searchedFrom = -1;
  private found: { index: number; end: number } | null = null;

  constructor(private readonly pattern: RegExp, private readonly text: string) {}

  from(position: number): { index: number; end: number } | null {
    const stillValid = this.searchedFrom !== -1 && position >= this.searchedFrom && (this.found === null || position <= this.found.index);
    if (!stillValid) {
      this.pattern.lastIndex = position;
      const m = this.pattern.exec(this.text);
      this.searchedFrom = position;
      this.found = m && { index: m.index, end: m.index + m[0].length };
    }
    return this.found;
  }
}

/**
 * Parses stored content. An element without its closing tag, or a link to an address that is
 * not http(s), is text: its opening tag is kept as text and reading goes on after it.
 */
export function parseNoteMarkup(content: string): MarkupToken[] {
  const imgClose = new NextMatch(/\[\/img\]/g, content);
  const urlClose = new NextMatch(/\[\/url\]/g, content);
  const tokens: MarkupToken[] = [];
  let text = '';
  let position = 0;
  const pattern = new RegExp(STORED_OPENINGS);
  for (let m = pattern.exec(content); m; m = pattern.exec(content)) {
    const openEnd = pattern.lastIndex;
    text += content.slice(position, m.index);
    position = openEnd;
    const close = (m[1] !== undefined ? imgClose : urlClose).from(openEnd);
    const inner = close ? content.slice(openEnd, close.index) : '';
    let token: MarkupToken | undefined;
    if (close && m[1] !== undefined) token = { kind: 'img', number: Number(m[1]), layout: m[2] as NotePictureLayout, caption: inner };
    else if (close) {
      const href = safeLinkAddress(m[3]);
      if (href !== undefined) token = { kind: 'url', href, title: inner };
    }
    if (!close || !token) {
      text += m[0];
      continue;
    }
    if (text !== '') tokens.push({ kind: 'text', text });
    text = '';
    tokens.push(token);
    position = pattern.lastIndex = close.end;
  }
  text += content.slice(position);
  if (text !== '') tokens.push({ kind: 'text', text });
  return tokens;
}

/**
 * Turns content as a client sent it into the stored form. `pictureText(n)` gives the layout and
 * caption of picture n, or undefined when the note has no picture n: referring to it is 400/1016.
 * Anything that is not one of the recognised forms is kept as text (and escaped when shown as HTML).
 */
export function normalizeNoteContent(raw: string, pictureText: (n: number) => PictureText | undefined): string {
  const tokens = readInput(cleanText(raw), pictureText);
  const stored = serializeMarkup(tokens);
  if (sameTokens(parseNoteMarkup(stored), tokens)) return stored;
  // BBCode has no escape: an opening the user typed without its closing tag would pair with a
  // closing tag written after it. Such openings get a full-width bracket, so what is stored
  // reads back exactly as it was read.
  const broken = tokens.map((t) => (t.kind === 'text' ? { ...t, text: t.text.replace(/\[(?=(?:img|url)=)/gi, FULL_WIDTH_BRACKET) } : t));
  return serializeMarkup(broken);
}

/** The stored form of tokens: text as it is, elements in their canonical form. */
export function serializeMarkup(tokens: MarkupToken[]): string {
  return tokens
    .map((t) => {
      switch (t.kind) {
        case 'text':
          return t.text;
        case 'img':
          return `[img=${t.number}:${t.layout}]${t.caption}[/img]`;
        case 'url':
          return `[url="${t.href}"]${t.title}[/url]`;
      }
    })
    .join('');
}

function readInput(input: string, pictureText: (n: number) => PictureText | undefined): MarkupToken[] {
  const imgClose = new NextMatch(/\[\/img\]/gi, input);
  const urlClose = new NextMatch(/\[\/url\]/gi, input);
  const anchorClose = new NextMatch(/<\/a\s*>/gi, input);
  const picture = (n: number): PictureText => {
    const found = pictureText(n);
    if (!found) throw new ApiError('invalid_args', `content refers to picture ${n}, which the note does not have`);
    return found;
  };
  const tokens: MarkupToken[] = [];
  const text = (value: string) => {
    if (value === '') return;
    const last = tokens[tokens.length - 1];
    if (last?.kind === 'text') last.text += value;
    else tokens.push({ kind: 'text', text: value });
  };
  const pattern = new RegExp(INPUT_OPENINGS);
  let position = 0;
  for (let m = pattern.exec(input); m; m = pattern.exec(input)) {
    const opening = m[0];
    const openEnd = pattern.lastIndex;
    text(input.slice(position, m.index));
    position = openEnd;
    const g = m.slice(1);
    /** Adds the element up to its closing tag, or keeps the opening as text when it is unclosed or may not become a link. */
    const element = (closer: NextMatch, make: (inner: string) => MarkupToken | undefined) => {
      const close = closer.from(openEnd);
      const made = close ? make(input.slice(openEnd, close.index)) : undefined;
      if (!close || !made) return text(opening);
      tokens.push(made);
      position = pattern.lastIndex = close.end;
    };
    const link = (address: string, title: string): MarkupToken | undefined => {
      const href = safeLinkAddress(address);
      return href === undefined ? undefined : urlToken(href, title);
    };

    if (g[0] !== undefined) {
      // [img=N:L]caption[/img], as stored: the picture must exist
      const n = Number(g[1]);
      element(imgClose, (caption) => (picture(n), imgToken(n, g[2].toUpperCase() as NotePictureLayout, caption)));
    } else if (g[3] !== undefined) {
      // [url="address"]title[/url]
      element(urlClose, (title) => link(g[4], title));
    } else if (g[5] !== undefined) {
      // [url='address']title[/url], [url=address]title[/url]
      element(urlClose, (title) => link(g[6] ?? g[7], title));
    } else if (g[8] !== undefined) {
      // [url]address[/url]
      element(urlClose, (address) => link(address, address));
    } else if (g[9] !== undefined) {
      // <图片p_N>, <图片 p_N="">
      const n = Number(g[10]);
      const { layout, caption } = picture(n);
      tokens.push(imgToken(n, layout, caption));
    } else if (g[11] !== undefined) {
      // <a href="address">title</a>: the title is the anchor's text
      const href = hrefAttribute(g[12] ?? '');
      element(anchorClose, (inner) => (href === undefined ? undefined : link(decodeHtmlEntities(href), decodeHtmlEntities(inner.replace(/<[^<>]*>/g, '')))));
    } else {
      // a bare address
      const { address, rest } = trimAddress(m[0]);
      const made = link(address, address);
      if (made) {
        tokens.push(made);
        text(rest);
      } else text(m[0]);
    }
  }
  text(input.slice(position));
  return tokens;
}

function imgToken(number: number, layout: NotePictureLayout, caption: string): MarkupToken {
  return { kind: 'img', number, layout, caption: oneLine(caption).replace(/\[(?=\/img\])/gi, FULL_WIDTH_BRACKET) };
}

function urlToken(href: string, title: string): MarkupToken {
  return { kind: 'url', href, title: oneLine(title).replace(/\[(?=\/url\])/gi, FULL_WIDTH_BRACKET) };
}

/** Captions and link titles are one line. */
function oneLine(text: string): string {
  return cleanText(text).replace(/\s*\n\s*/g, ' ');
}

function sameTokens(a: MarkupToken[], b: MarkupToken[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function hrefAttribute(attributes: string): string | undefined {
  const m = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attributes);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** Sentence punctuation after a bare address belongs to the sentence, and so does an unmatched `)`. */
function trimAddress(text: string): { address: string; rest: string } {
  const open = count(text, '(');
  let close = count(text, ')');
  let end = text.length;
  while (end > 0) {
    const c = text[end - 1];
    if ('.,;:!?'.includes(c)) end--;
    else if (c === ')' && open < close) {
      end--;
      close--;
    } else break;
  }
  return { address: text.slice(0, end), rest: text.slice(end) };
}

const count = (text: string, c: string) => text.split(c).length - 1;

/** Line ends as `\n`; NUL and other C0 controls except tab and newline removed. */
export function cleanText(text: string): string {
  return withoutControlCharacters(text.replace(/\r\n?/g, '\n'));
}

