import { ApiError } from '@plaza/contracts';
import { normalizeNoteContent, parseNoteMarkup, PictureText } from './note-markup';
import { decodeHtmlEntities, safeLinkAddress } from './safe-url';

const pictures: Record<number, PictureText> = {
  1: { layout: 'L', caption: 'first' },
  2: { layout: 'C', caption: '' },
};
const normalize = (raw: string) => normalizeNoteContent(raw, (n) => pictures[n]);

describe('safeLinkAddress', () => {
  it.each([
    ['http://example.com', 'http://example.com/'],
    ['https://example.com/a?b=1&c=2#d', 'https://example.com/a?b=1&c=2#d'],
    ['HTTPS://EXAMPLE.COM/X', 'https://example.com/X'],
    ['http://example.com/"><script>', 'http://example.com/%22%3E%3Cscript%3E'],
    ['  http://example.com/x y ', 'http://example.com/x%20y'],
  ])('accepts %j as %j', (address, href) => {
    expect(safeLinkAddress(address)).toBe(href);
  });

  it.each([
    'javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)', 'file:///etc/passwd', '/relative', '//example.com/x', 'http:example.com', 'http://', '', 'ftp://example.com/',
    `http://example.com/${'a'.repeat(2001)}`,
  ])('refuses %j', (address) => {
    expect(safeLinkAddress(address)).toBeUndefined();
  });
});

describe('decodeHtmlEntities', () => {
  it('decodes named and numeric references', () => {
    expect(decodeHtmlEntities('Tom &amp; Jerry &lt;3 &#58; &#x3A; &QUOT;')).toBe('Tom & Jerry <3 : : "');
  });

  it('keeps unknown names and replaces impossible code points', () => {
    expect(decodeHtmlEntities('&nosuch; &#0; &#xD800;')).toBe('&nosuch; \ufffd \ufffd');
  });
});

describe('normalizeNoteContent: pictures', () => {
  it('turns <图片p_N> and <图片 p_N=""> into [img=N:layout]caption[/img]', () => {
    expect(normalize('a<图片p_1>b<图片 p_2="">c')).toBe('a[img=1:L]first[/img]b[img=2:C][/img]c');
  });

  it('accepts the other spellings of the reference', () => {
    expect(normalize("<图片 p_1=''><图片p_2/><图片 P_1 = \"x\" />")).toBe('[img=1:L]first[/img][img=2:C][/img][img=1:L]first[/img]');
  });

  it('keeps the stored form, checking the picture exists', () => {
    expect(normalize('x[img=2:r]my caption[/img]y')).toBe('x[img=2:R]my caption[/img]y');
  });

  it('refuses a reference to a picture the note does not have with 400/1016', () => {
    for (const raw of ['<图片p_3>', '[img=9:C][/img]']) {
      let error: unknown;
      try {
        normalize(raw);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(1016);
    }
  });

  it('keeps a caption on one line and without a closing tag', () => {
    const result = normalizeNoteContent('<图片p_1>', () => ({ layout: 'C', caption: 'a\r\nb[/img][/IMG]c' }));
    expect(result).toBe('[img=1:C]a b［/img]［/IMG]c[/img]');
    expect(parseNoteMarkup(result)).toEqual([{ kind: 'img', number: 1, layout: 'C', caption: 'a b［/img]［/IMG]c' }]);
    const nested = normalizeNoteContent('<图片p_1>', () => ({ layout: 'C', caption: '[/im[/img]g]' }));
    expect(parseNoteMarkup(nested)).toEqual([{ kind: 'img', number: 1, layout: 'C', caption: '[/im［/img]g]' }]);
  });

  it('leaves references of other forms as text', () => {
    expect(normalize('<图片1> <图片 n="1"> [img=1:X][/img] [img=1:C]open')).toBe('<图片1> <图片 n="1"> [img=1:X][/img] [img=1:C]open');
  });
});

describe('normalizeNoteContent: links', () => {
  it('turns an HTML anchor into [url="..."]title[/url]', () => {
    expect(normalize('see <a href="http://example.com/a?b=1&amp;c=2">the <b>page</b> &amp; more</a>!')).toBe(
      'see [url="http://example.com/a?b=1&c=2"]the page & more[/url]!',
    );
  });

  it('accepts single-quoted, unquoted and upper-case anchors with other attributes', () => {
    expect(normalize("<A title='t' HREF='https://a.example/'>x</A>")).toBe('[url="https://a.example/"]x[/url]');
    expect(normalize('<a href=http://a.example/p target=_blank>y</a >')).toBe('[url="http://a.example/p"]y[/url]');
  });

  it('turns a bare address into a link titled with the address', () => {
    expect(normalize('read http://example.com/x?y=1. Then 看http://example.org很好')).toBe(
      'read [url="http://example.com/x?y=1"]http://example.com/x?y=1[/url]. Then 看[url="http://example.org/"]http://example.org[/url]很好',
    );
  });

  it('keeps balanced parentheses in a bare address and drops an unmatched one', () => {
    expect(normalize('(https://en.wikipedia.org/wiki/Foo_(bar))')).toBe(
      '([url="https://en.wikipedia.org/wiki/Foo_(bar)"]https://en.wikipedia.org/wiki/Foo_(bar)[/url])',
    );
  });

  it('normalizes [url=...] markup in its three spellings and [url]address[/url]', () => {
    expect(normalize('[url="http://a.example"]A[/url] [url=\'http://b.example\']B[/url] [url=http://c.example]C[/url] [url]http://d.example[/url]')).toBe(
      '[url="http://a.example/"]A[/url] [url="http://b.example/"]B[/url] [url="http://c.example/"]C[/url] [url="http://d.example/"]http://d.example[/url]',
    );
  });

  it('does not link an address inside a link', () => {
    expect(normalize('[url="http://a.example/"]http://b.example[/url]')).toBe('[url="http://a.example/"]http://b.example[/url]');
    expect(normalize('<a href="http://a.example/">http://b.example</a>')).toBe('[url="http://a.example/"]http://b.example[/url]');
  });

  it('keeps javascript: and data: anchors as text, and goes on reading inside them', () => {
    expect(normalize('<a href="javascript:alert(1)">x <图片p_1></a>')).toBe('<a href="javascript:alert(1)">x [img=1:L]first[/img]</a>');
    expect(normalize('<a href="jav&#x61;script&#58;alert(1)">x</a>')).toBe('<a href="jav&#x61;script&#58;alert(1)">x</a>');
    expect(normalize('<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>')).toBe('<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>');
    expect(normalize('<a onclick="alert(1)">no href</a>')).toBe('<a onclick="alert(1)">no href</a>');
  });

  it('keeps [url=javascript:...] as text', () => {
    expect(normalize('[url="javascript:alert(1)"]x[/url] [url=data:text/html,x]y[/url]')).toBe('[url="javascript:alert(1)"]x[/url] [url=data:text/html,x]y[/url]');
  });

  it('puts no closing tag into a link title', () => {
    expect(normalize('<a href="http://a.example/">x[/url]y</a>')).toBe('[url="http://a.example/"]x［/url]y[/url]');
    expect(normalize('<a href="http://a.example/">x[/u<b></b>rl]y</a>')).toBe('[url="http://a.example/"]x［/url]y[/url]');
  });

  it('keeps broken markup as text', () => {
    expect(normalize('<a href="http://a.example/">no end')).toBe('<a href="http://a.example/">no end');
    expect(normalize('[url="http://a.example/"]no end')).toBe('[url="http://a.example/"]no end');
    expect(normalize('<script>alert(1)</script><img src=x onerror=alert(1)>')).toBe('<script>alert(1)</script><img src=x onerror=alert(1)>');
  });

  it('breaks an unclosed opening that would pair with a closing tag written after it', () => {
    const stored = normalize('[img=2:C] typed, then <图片p_1> and [url="http://a.example/"] typed, then http://b.example/');
    expect(stored).toBe(
      '［img=2:C] typed, then [img=1:L]first[/img] and ［url="http://a.example/"] typed, then [url="http://b.example/"]http://b.example/[/url]',
    );
    expect(parseNoteMarkup(stored).map((t) => t.kind)).toEqual(['text', 'img', 'text', 'url']);
    // without a closing tag after it, an unclosed opening is left alone
    expect(normalize('[img=2:C] typed, no closing')).toBe('[img=2:C] typed, no closing');
  });

  it('normalizes line ends and drops control characters', () => {
    expect(normalize('a\r\nb\rc\u0000d\te')).toBe('a\nb\ncd\te');
  });
});

describe('parseNoteMarkup', () => {
  it('splits stored content into text, pictures and links', () => {
    expect(parseNoteMarkup('a[img=1:L]cap[/img]b[url="http://a.example/"]t[/url]c')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'img', number: 1, layout: 'L', caption: 'cap' },
      { kind: 'text', text: 'b' },
      { kind: 'url', href: 'http://a.example/', title: 't' },
      { kind: 'text', text: 'c' },
    ]);
  });

  it('never makes a link of a javascript: address, but reads on inside it', () => {
    expect(parseNoteMarkup('[url="javascript:alert(1)"][img=1:C][/img][/url]')).toEqual([
      { kind: 'text', text: '[url="javascript:alert(1)"]' },
      { kind: 'img', number: 1, layout: 'C', caption: '' },
      { kind: 'text', text: '[/url]' },
    ]);
  });

  it('reads back what normalize stored, whatever the input', () => {
    const inputs = [
      'x <a href="http://a.example/?q=&quot;">t</a> y http://b.example/(z) [url=c.example]d[/url]',
      '<a href="javascript:x">[img=1:C]c[/img]</a>',
      'text [IMG=2:l]cap[/img] and [url=\'https://e.example\']e[/URL]',
    ];
    for (const input of inputs) {
      const stored = normalize(input);
      expect(normalize(stored)).toBe(stored);
    }
  });

  it('is plain text when there is no markup', () => {
    expect(parseNoteMarkup('just <b>text</b>')).toEqual([{ kind: 'text', text: 'just <b>text</b>' }]);
    expect(parseNoteMarkup('')).toEqual([]);
  });
});

describe('cost on hostile content', () => {
  const SIZE = 100_000;
  const hostile = [
    '[img=1:C]'.repeat(SIZE / 9),
    '[url="http://a.example/"]'.repeat(SIZE / 25),
    '[url="'.repeat(SIZE / 6),
    '[url=x'.repeat(SIZE / 6),
    '<a href="http://a.example/">'.repeat(SIZE / 28),
    '<a '.repeat(SIZE / 3),
    `http://a.example/${')'.repeat(SIZE)}`,
    `http://a.example/${'('.repeat(SIZE / 2)}${')'.repeat(SIZE / 2)}.`,
  ];

  it.each(hostile.map((h) => [h.slice(0, 30), h]))('normalizes and parses %j... in linear time', (_, content) => {
    const started = Date.now();
    const stored = normalize(content);
    parseNoteMarkup(stored);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
