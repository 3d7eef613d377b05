import { abstractOf, referencedPictures, renderHtml } from './annotation-content';

const urls = new Map([[1, 'http://pics/1.png'], [2, 'http://pics/2.png?ck=a&e=9']]);
const pictureUrl = (n: number) => urls.get(n);

describe('annotation content', () => {
  it('finds picture references in both accepted forms, once each, in order', () => {
    expect(referencedPictures('a <图片2> b <图片 n="1"> c <图片2> <图片 n=\'3\'/> <图片 n=4>')).toEqual([2, 1, 3, 4]);
    expect(referencedPictures('no pictures <图片> <图片 n="x">')).toEqual([]);
  });

  it('renders references to stored pictures as <img>, with the address escaped', () => {
    expect(renderHtml('看<图片1>和<图片 n="2">', pictureUrl)).toBe(
      '看<img src="http://pics/1.png" alt="1">和<img src="http://pics/2.png?ck=a&amp;e=9" alt="2">',
    );
  });

  it('escapes everything the author typed: tags, handlers, entities, quotes', () => {
    const html = renderHtml('<script>alert(1)</script><img src=x onerror="alert(2)"> & \'q\'', pictureUrl);
    expect(html).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt; &amp; &#39;q&#39;');
    expect(html).not.toMatch(/<(script|img src=x)/);
  });

  it('shows a reference to a picture that does not exist, and broken markup, as text', () => {
    expect(renderHtml('<图片9> <图片1 <图片 n="1"', pictureUrl)).toBe('&lt;图片9&gt; &lt;图片1 &lt;图片 n=&quot;1&quot;');
  });

  it('turns line breaks into <br>', () => {
    expect(renderHtml('a\nb\r\nc', pictureUrl)).toBe('a<br>b<br>c');
  });

  it('abstracts the text without picture references, cut at 100 characters with ...', () => {
    expect(abstractOf('第一段<图片1>\n\n第二段')).toBe('第一段 第二段');
    const long = '字'.repeat(120);
    expect(abstractOf(long)).toBe(`${'字'.repeat(100)}...`);
    expect(abstractOf('字'.repeat(100))).toBe('字'.repeat(100));
    expect(abstractOf('😀'.repeat(101))).toBe(`${'😀'.repeat(100)}...`);
    expect(abstractOf('😀'.repeat(100))).toBe('😀'.repeat(100));
  });
});
