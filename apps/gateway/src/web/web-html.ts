import escapeHtml from 'escape-html';

/** Text into HTML: the same escaping as the API's html formats (`& < > " '`, escape-html). */
export const esc = (text: string | number | null | undefined): string => escapeHtml(text === null || text === undefined ? '' : String(text));

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/** The language a record is written in, from its own text: Chinese when any of it is Han, else English (the catalogue's two languages). */
export function languageOf(...texts: Array<string | undefined>): 'zh-CN' | 'en' {
  return texts.some((t) => t !== undefined && HAN.test(t)) ? 'zh-CN' : 'en';
}

/** `lang` on an element whose text may be in another language than the page's. */
export function langAttr(text: string, pageLang: string): string {
  const lang = languageOf(text);
  return lang === pageLang ? '' : ` lang="${lang}"`;
}

/**
 * JSON-LD inside `<script type="application/ld+json">`: JSON with `<`, `>`, `&` and the two line
 * separators escaped, so no text of a record can close the element or start a comment.
 */
export function jsonLd(data: object): string {
  return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An absolute http(s) address, or undefined: record addresses are shown as links only when they are. */
export function httpAddress(value: string | undefined): string | undefined {
  return value && /^https?:\/\/[^\s"'<>]+$/i.test(value) ? value : undefined;
}

export interface PageMeta {
  /** `<title>` and `og:title`. */
  title: string;
  lang: 'zh-CN' | 'en';
  /** The page's own address (`PUBLIC_WEB_URL/...`): canonical and `og:url`. */
  url: string;
  description?: string;
  image?: string;
  /** `og:type`: `book`, `video.movie`, `profile`, `article`, `website`. */
  ogType: string;
  /** schema.org JSON-LD, when the record has a type for it. */
  ld?: object;
}

/**
 * What every page shares: no script, no external style (the CSP allows inline styles and
 * pictures only), readable on a phone and a desktop, Chinese text in a CJK face with the line
 * height and justification Chinese needs (`:lang(zh)`), never italic.
 */
const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#fff}
:lang(zh){font-family:system-ui,-apple-system,"PingFang SC","Hiragino Sans GB","Noto Sans CJK SC","Source Han Sans SC","Microsoft YaHei","WenQuanYi Micro Hei",sans-serif;line-height:1.8;line-break:strict;word-break:normal;overflow-wrap:anywhere}
:lang(zh) em,:lang(zh) i{font-style:normal;font-weight:bold}
:lang(zh) .prose{text-align:justify;text-justify:inter-ideograph}
header.site,footer.site{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:.6rem 1rem}
footer.site{border-top:1px solid #d0d7de;border-bottom:0;margin-top:2rem;font-size:.9rem;color:#4d5560}
header.site a{color:#1f2328;font-weight:600;text-decoration:none}
main{max-width:52rem;margin:0 auto;padding:1rem}
a{color:#0a58ca}
h1{font-size:1.6rem;line-height:1.3;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}
.record{display:flex;gap:1.25rem;align-items:flex-start;flex-wrap:wrap}
.record img.cover{width:10rem;max-width:40vw;height:auto;border:1px solid #d0d7de;background:#f6f8fa}
.record .facts{flex:1 1 16rem;min-width:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0}
dl.facts dt{color:#4d5560}
dl.facts dd{margin:0}
ul.items{padding-left:1.2rem}
ul.items li{margin:.3rem 0}
.meta{color:#4d5560;font-size:.9rem}
.prose{white-space:normal}
.prose p{margin:.5rem 0}
ul.photos{list-style:none;padding:0;margin:.5rem 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.75rem}
ul.photos img{display:block;width:100%;height:auto;border:1px solid #d0d7de;background:#f6f8fa}
figure.photo{margin:0 0 1rem}
figure.photo img{display:block;max-width:100%;height:auto;border:1px solid #d0d7de;background:#f6f8fa}
figure.note-photo{margin:1rem 0}
figure.note-photo img{max-width:100%;height:auto}
.note-photo-L{text-align:left}.note-photo-C{text-align:center}.note-photo-R{text-align:right}
.status{font-size:3rem;font-weight:700;color:#4d5560;margin:0}
@media (max-width:36rem){main{padding:.75rem}h1{font-size:1.35rem}.record img.cover{width:7rem}}
`;

const SITE_NAME = 'Plaza';

export function pageShell(meta: PageMeta, body: string, home: string): string {
  const description = meta.description ? meta.description.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  const ogLocale = meta.lang === 'zh-CN' ? 'zh_CN' : 'en_US';
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(meta.title)} - ${SITE_NAME}</title>`,
    `<link rel="canonical" href="${esc(meta.url)}">`,
    description ? `<meta name="description" content="${esc(description)}">` : '',
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:type" content="${esc(meta.ogType)}">`,
    `<meta property="og:title" content="${esc(meta.title)}">`,
    `<meta property="og:url" content="${esc(meta.url)}">`,
    `<meta property="og:locale" content="${ogLocale}">`,
    description ? `<meta property="og:description" content="${esc(description)}">` : '',
    meta.image ? `<meta property="og:image" content="${esc(meta.image)}">` : '',
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
    meta.ld ? `<script type="application/ld+json">${jsonLd(meta.ld)}</script>` : '',
    `<style>${STYLE}</style>`,
  ].filter(Boolean);
  return `<!doctype html>
<html lang="${meta.lang}">
<head>
${head.join('\n')}
</head>
<body>
<header class="site"><a href="${esc(home)}">${SITE_NAME}</a></header>
<main>
${body}
</main>
<footer class="site">${SITE_NAME} · <a href="${esc(meta.url)}">${meta.lang === 'zh-CN' ? '本页链接' : 'Permalink'}</a></footer>
</body>
</html>`;
}

/** Definition list of the facts that are present. */
export function facts(rows: Array<[string, string | undefined]>): string {
  const shown = rows.filter(([, v]) => v !== undefined && v !== '');
  if (shown.length === 0) return '';
  return `<dl class="facts">${shown.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** Plain text with its paragraphs (blank lines) and line ends kept. */
export function paragraphs(text: string): string {
  const parts = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return parts.map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`).join('');
}
