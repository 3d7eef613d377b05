import { expectError, get, post } from '../support/http';
import { createNote, NoteUsers, tokensOf } from './note-fixtures';

/**
 * Content markup and the four formats (docs/api/note.md, "Content markup" and "Content formats"),
 * and HTML injection: every HTML output is escaped text plus the
 * elements the markup produces. (Pictures in content: notes-pictures.e2e-spec.ts.)
 */
describe('note content', () => {
  let mia: string;
  const read = async (id: string, format: string) => (await get(`/v2/note/${id}`, { token: mia, query: { format } })).body.content as string;
  const LINK = (href: string, text: string) => `<a href="${href}" rel="nofollow noopener noreferrer" target="_blank">${text}</a>`;

  beforeAll(async () => {
    ({ mia } = await tokensOf('mia'));
  });

  describe('links', () => {
    it('stores an HTML anchor, a bare address and [url=...] markup as [url="..."]title[/url]', async () => {
      const note = await createNote(mia, {
        title: 'links',
        content: 'An <a href="https://example.com/a?x=1&amp;y=2">anchor</a>, a bare http://example.org/page. and [url=https://example.net]markup[/url].',
      });
      expect(note.content).toBe(
        'An [url="https://example.com/a?x=1&y=2"]anchor[/url], a bare [url="http://example.org/page"]http://example.org/page[/url]. and [url="https://example.net/"]markup[/url].',
      );
      expect(await read(note.id, 'html_full')).toBe(
        `An ${LINK('https://example.com/a?x=1&amp;y=2', 'anchor')}, a bare ${LINK('http://example.org/page', 'http://example.org/page')}. and ${LINK('https://example.net/', 'markup')}.`,
      );
      expect(note.summary).toBe('An anchor, a bare http://example.org/page. and markup.');
    });

    it('keeps the stored form when it is sent back (text read, edited, written)', async () => {
      const first = await createNote(mia, { title: 'round trip', content: 'see http://example.org/x and <a href="http://example.com/">this</a>' });
      const second = await createNote(mia, { title: 'round trip', content: first.content });
      expect(second.content).toBe(first.content);
    });
  });

  describe('formats', () => {
    const head = 'Dear diary,\nI read <b>two</b> books & one http://example.com/book. ';
    const tail = '很好'.repeat(50);
    /** What of the tail fits in the first 100 characters (all of them in the BMP, so slice counts characters). */
    const cutTail = tail.slice(0, 100 - head.length);
    let id: string;

    beforeAll(async () => {
      id = (await createNote(mia, { title: 'formats', content: head + tail })).id;
    });

    it('text (the default): the stored markup', async () => {
      const stored = `Dear diary,\nI read <b>two</b> books & one [url="http://example.com/book"]http://example.com/book[/url]. ${tail}`;
      expect(await read(id, 'text')).toBe(stored);
      expect((await get(`/v2/note/${id}`, { token: mia })).body.content).toBe(stored);
    });

    it('html_full: all of it as HTML', async () => {
      expect(await read(id, 'html_full')).toBe(
        `Dear diary,<br>I read &lt;b&gt;two&lt;/b&gt; books &amp; one ${LINK('http://example.com/book', 'http://example.com/book')}. ${tail}`,
      );
    });

    it('abstract and summary: the first 100 characters without markup, then ...; typed tags are text', async () => {
      const abstract = `${head}${cutTail}...`;
      expect([...abstract.slice(0, -3)].length).toBe(100);
      expect(await read(id, 'abstract')).toBe(abstract);
      expect((await get(`/v2/note/${id}`, { token: mia })).body.summary).toBe(abstract);
    });

    it('html_short: the same cut as HTML', async () => {
      expect(await read(id, 'html_short')).toBe(
        `Dear diary,<br>I read &lt;b&gt;two&lt;/b&gt; books &amp; one ${LINK('http://example.com/book', 'http://example.com/book')}. ${cutTail}...`,
      );
    });

    it('adds no ... when nothing is cut', async () => {
      const exact = await createNote(mia, { title: 'exact', content: 'x'.repeat(100) });
      expect(exact.summary).toBe('x'.repeat(100));
      expect(await read(exact.id, 'html_short')).toBe('x'.repeat(100));
      const long = await createNote(mia, { title: 'long', content: 'x'.repeat(101) });
      expect(long.summary).toBe(`${'x'.repeat(100)}...`);
    });
  });

  describe('HTML injection', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<svg onload=alert(1)>',
      '<a href="javascript:alert(1)">js link</a>',
      '<a href="JaVaScRiPt:alert(1)">mixed case</a>',
      '<a href="jav&#x61;script&#58;alert(1)">entities</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>',
      '[url="javascript:alert(1)"]markup js[/url]',
      '[url=data:text/html,<script>alert(1)</script>]markup data[/url]',
      '<a href="https://ok.example/" onmouseover="alert(1)" style="x">good link, bad attributes</a>',
      '<a href="https://ok.example/"><img src=x onerror=alert(1)></a>',
      'https://ok.example/"onmouseover="alert(1)',
      '<a href="https://ok.example/',
      '<<script>script>alert(1)<</script>/script>',
      '<iframe src="https://evil.example/"></iframe><style>*{display:none}</style>',
      '[url="https://ok.example/"]unclosed',
      '[img=1:C]no such picture, unclosed',
    ];
    let id: string;

    beforeAll(async () => {
      id = (await createNote(mia, { title: '<script>alert("title")</script>', content: attacks.join('\n') })).id;
    });

    it.each(['html_full', 'html_short'])('%s holds only the elements the markup makes, with http(s) addresses only', async (format) => {
      const html = await read(id, format);
      for (const tag of html.match(/<[^>]*>/g) ?? []) {
        expect(tag).toMatch(/^(<br>|<a href="https?:\/\/[^"<>]*" rel="nofollow noopener noreferrer" target="_blank">|<\/a>)$/);
      }
      // outside the renderer's own tags there is no markup character left
      expect(html.replace(/<[^>]*>/g, '')).not.toMatch(/[<>"']/);
      expect(html).not.toMatch(/href="(?!https?:\/\/)/i);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('makes links only of the http(s) anchors, dropping their other attributes', async () => {
      const html = await read(id, 'html_full');
      expect(html).toContain(LINK('https://ok.example/', 'good link, bad attributes'));
      expect(html).not.toMatch(/href="[^"]*(javascript|data:)/i);
      expect(html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;js link&lt;/a&gt;');
    });

    it('shows typed tags as text in abstract and summary, and keeps the title as text', async () => {
      const note = (await get(`/v2/note/${id}`, { token: mia })).body;
      expect(note.summary.startsWith('<script>alert(1)</script>\n<img src=x onerror="alert(1)">')).toBe(true);
      expect(await read(id, 'abstract')).toBe(note.summary);
      expect(note.title).toBe('<script>alert("title")</script>');
    });
  });

  describe('picture references without the picture', () => {
    it.each([['<图片p_1>'], ['<图片 p_2="">'], ['[img=1:C]caption[/img]']])('refuses %s with 400/1016 and stores nothing', async (content) => {
      const before = (await get(`/v2/note/user_created/${NoteUsers.mia.id}`, { token: mia, query: { count: 0 } })).body.total;
      expectError(await post('/v2/notes', { token: mia, json: { title: 'pictures', content } }), 400, 1016);
      expect((await get(`/v2/note/user_created/${NoteUsers.mia.id}`, { token: mia, query: { count: 0 } })).body.total).toBe(before);
    });
  });
});
