import escapeHtml from 'escape-html';

/**
 * Annotation content is the author's text with picture references: `<图片2>` or `<图片 n="2">`
 * (docs/api/book.md; `n='2'`, `n=2` and a closing `/` are tolerated). The `text` format shows
 * it as written; `html` escapes every character the author typed and turns each reference to a
 * stored picture into an `<img>`, so no markup of the author's ever reaches a page.
 */
const PICTURE_REF = /<图片\s*(?:(\d{1,4})|n\s*=\s*(?:"(\d{1,4})"|'(\d{1,4})'|(\d{1,4})))\s*\/?>/gu;

/** Abstracts are cut here (the same rule as note summaries). */
export const ABSTRACT_LENGTH = 100;

type Piece =
  | { kind: 'text'; text: string }
  /** `raw` is the reference as written, shown as text when no picture has its number. */
  | { kind: 'picture'; picture: number; raw: string };

function pieces(content: string): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const match of content.matchAll(PICTURE_REF)) {
    const index = match.index ?? 0;
    if (index > last) out.push({ kind: 'text', text: content.slice(last, index) });
    out.push({ kind: 'picture', picture: Number(match[1] ?? match[2] ?? match[3] ?? match[4]), raw: match[0] });
    last = index + match[0].length;
  }
  if (last < content.length) out.push({ kind: 'text', text: content.slice(last) });
  return out;
}

/** The picture numbers the content refers to, in order of first reference. */
export function referencedPictures(content: string): number[] {
  return [...new Set(pieces(content).flatMap((p) => (p.kind === 'picture' ? [p.picture] : [])))];
}

function escapeText(text: string): string {
  return escapeHtml(text).replace(/\r\n|\r|\n/g, '<br>');
}

/** `format=html`: escaped text, line breaks as `<br>`, references to stored pictures as `<img>`. */
export function renderHtml(content: string, pictureUrl: (n: number) => string | undefined): string {
  return pieces(content)
    .map((piece) => {
      if (piece.kind === 'text') return escapeText(piece.text);
      const url = pictureUrl(piece.picture);
      return url ? `<img src="${escapeHtml(url)}" alt="${piece.picture}">` : escapeText(piece.raw);
    })
    .join('');
}

/** The first ABSTRACT_LENGTH characters of the text without picture references, `...` when cut. */
export function abstractOf(content: string): string {
  const text = pieces(content)
    .flatMap((p) => (p.kind === 'text' ? [p.text] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  // counted in code points, without splitting the whole text into them (a list shows twenty)
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === ABSTRACT_LENGTH) return `${text.slice(0, end)}...`;
    count++;
    end += char.length;
  }
  return text;
}
