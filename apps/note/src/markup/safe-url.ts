/** Longest address that becomes a link; longer ones stay text. */
export const MAX_LINK_LENGTH = 2000;

/**
 * The canonical form of an address a link may point to, or undefined when it may not be a link.
 * Only absolute http and https addresses qualify: `javascript:`, `data:`, `vbscript:`, relative
 * and unparseable addresses never become an href. The WHATWG serialisation percent-encodes
 * quotes, spaces and angle brackets, so the result can sit between quotes in the stored markup
 * and in an HTML attribute.
 */
export function safeLinkAddress(address: string): string | undefined {
  const trimmed = address.trim();
  if (trimmed === '' || trimmed.length > MAX_LINK_LENGTH) return undefined;
  // only addresses that say http(s) themselves: `new URL` would also accept `http:foo` forms
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (!url.hostname) return undefined;
  const href = url.href;
  return href.length <= MAX_LINK_LENGTH && !/["\s<>]/.test(href) ? href : undefined;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Decodes the character references of HTML a client sent as an anchor (its address and title),
 * so `javascript&#58;` is seen for what it is before the address is checked.
 */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,8});?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}
