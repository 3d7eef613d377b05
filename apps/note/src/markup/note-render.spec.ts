import { normalizeNoteContent, parseNoteMarkup } from './note-markup';
import { abridge, noteAbstract, renderHtml, renderNoteContent } from './note-render';

const photos = new Map([[1, 'http://api.example/v2/picture/note-1.jpg?ck=a&e=1']]);
const stored = (raw: string) => normalizeNoteContent(raw, (n) => (n === 1 ? { layout: 'C', caption: 'cap' } : undefined));

describe('renderNoteContent', () => {
  const content = stored('Hello <b>you</b>\n<图片p_1>\nsee http://a.example/x & <a href="https://b.example/">B "site"</a>');

  it('text: the stored markup as it is', () => {
    expect(renderNoteContent(content, 'text', photos)).toBe(
      'Hello <b>you</b>\n[img=1:C]cap[/img]\nsee [url="http://a.example/x"]http://a.example/x[/url] & [url="https://b.example/"]B "site"[/url]',
    );
  });

  it('html_full: escaped text, line breaks, a figure per picture and an anchor per link', () => {
    expect(renderNoteContent(content, 'html_full', photos)).toBe(
      'Hello &lt;b&gt;you&lt;/b&gt;<br>' +
        '<figure class="note-photo note-photo-C"><img src="http://api.example/v2/picture/note-1.jpg?ck=a&amp;e=1" alt="cap"><figcaption>cap</figcaption></figure>' +
        '<br>see <a href="http://a.example/x" rel="nofollow noopener noreferrer" target="_blank">http://a.example/x</a> &amp; ' +
        '<a href="https://b.example/" rel="nofollow noopener noreferrer" target="_blank">B &quot;site&quot;</a>',
    );
  });

  it('abstract: text without markup, pictures left out, user tags as text', () => {
    expect(renderNoteContent(content, 'abstract', photos)).toBe('Hello <b>you</b>\n\nsee http://a.example/x & B "site"');
  });

  it('html_short: the abstract cut, as HTML', () => {
    expect(renderNoteContent(content, 'html_short', photos)).toBe(
      'Hello &lt;b&gt;you&lt;/b&gt;<br><br>see <a href="http://a.example/x" rel="nofollow noopener noreferrer" target="_blank">http://a.example/x</a> &amp; ' +
        '<a href="https://b.example/" rel="nofollow noopener noreferrer" target="_blank">B &quot;site&quot;</a>',
    );
  });
});

describe('abstract and html_short cut at 100 characters', () => {
  it('keeps exactly 100 characters without a mark', () => {
    expect(noteAbstract('x'.repeat(100))).toBe('x'.repeat(100));
  });

  it('cuts at 100 characters and adds ...', () => {
    expect(noteAbstract('x'.repeat(101))).toBe(`${'x'.repeat(100)}...`);
    expect(renderNoteContent('<'.repeat(150), 'html_short', photos)).toBe(`${'&lt;'.repeat(100)}...`);
  });

  it('counts characters, not UTF-16 units', () => {
    const text = '😀'.repeat(120);
    expect(noteAbstract(text)).toBe(`${'😀'.repeat(100)}...`);
    expect(noteAbstract('日'.repeat(100))).toBe('日'.repeat(100));
  });

  it('does not count markup or pictures, and shows a link by its title', () => {
    const content = stored(`<图片p_1>${'a'.repeat(95)}<a href="http://a.example/">0123456789</a>tail`);
    expect(noteAbstract(content)).toBe(`${'a'.repeat(95)}01234...`);
    expect(renderNoteContent(content, 'html_short', photos)).toBe(
      `${'a'.repeat(95)}<a href="http://a.example/" rel="nofollow noopener noreferrer" target="_blank">01234</a>...`,
    );
  });

  it('shows an untitled link by its address', () => {
    expect(noteAbstract('[url="http://a.example/"][/url]')).toBe('http://a.example/');
  });

  it('trims blanks at both ends (left by pictures, say)', () => {
    expect(noteAbstract(stored('<图片p_1>\n  hello \n<图片p_1>\n'))).toBe('hello');
    expect(abridge(parseNoteMarkup(stored('<图片p_1>\n'))).tokens).toEqual([]);
  });
});

describe('HTML output never carries user HTML', () => {
  const attacks = [
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '<a href="javascript:alert(1)">click</a>',
    '<a href="JaVaScRiPt:alert(1)">click</a>',
    '<a href="jav&#x61;script:alert(1)">click</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
    '[url="javascript:alert(1)"]click[/url]',
    '[url=javascript:alert(1)]click[/url]',
    '<a href="http://ok.example/" onmouseover="alert(1)">hover</a>',
    '<a href="http://ok.example/"><script>alert(1)</script></a>',
    'http://ok.example/"onmouseover="alert(1)',
    '<svg/onload=alert(1)>',
    '<<script>script>alert(1)<</script>/script>',
    '<a href="http://ok.example/',
    '[img=1:C]<script>alert(1)</script>[/img]',
    '<style>body{display:none}</style><iframe src="http://evil.example/"></iframe>',
  ];

  it.each(attacks)('%s', (attack) => {
    for (const format of ['html_full', 'html_short'] as const) {
      const html = renderNoteContent(stored(attack), format, photos);
      // the only elements are the ones the renderer makes
      const tags = html.match(/<[^>]*>/g) ?? [];
      for (const tag of tags) {
        expect(tag).toMatch(/^(<br>|<\/?figure( class="note-photo note-photo-[LCR]")?>|<\/?figcaption>|<img src="[^"<>]*" alt="[^"<>]*">|<a href="https?:\/\/[^"<>]*" rel="nofollow noopener noreferrer" target="_blank">|<\/a>)$/);
      }
      // and user text is escaped: no raw element, no quote that could end an attribute
      expect(html).not.toMatch(/<(script|svg|iframe|style)|href="(?!https?:)/i);
      expect(html.replace(/<[^>]*>/g, '')).not.toMatch(/[<>"']/);
    }
  });

  it('escapes a picture address and caption in attributes', () => {
    const html = renderHtml([{ kind: 'img', number: 1, layout: 'L', caption: '"><script>' }], new Map([[1, 'http://x/"><y']]));
    expect(html).toBe('<figure class="note-photo note-photo-L"><img src="http://x/&quot;&gt;&lt;y" alt="&quot;&gt;&lt;script&gt;"><figcaption>&quot;&gt;&lt;script&gt;</figcaption></figure>');
  });

  it('leaves out a picture the note does not have', () => {
    expect(renderHtml(parseNoteMarkup('a[img=7:C]x[/img]b'), photos)).toBe('ab');
  });
});
