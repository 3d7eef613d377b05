import { IsString } from 'class-validator';
import { BannedWords, NoBannedWords } from './banned-words';
import { validateInput } from './validation-errors';

class Comment {
  @IsString() @NoBannedWords() content!: string;
}

describe('banned words (docs/api/README.md, code 1004)', () => {
  afterEach(() => BannedWords.use([]));

  it('lets everything through while the list is empty (the default)', async () => {
    await expect(validateInput(Comment, { content: 'anything at all' })).resolves.toBeDefined();
  });

  it('rejects a text containing a listed word with 400/1004, whatever its case or width', async () => {
    BannedWords.use(['Spam', '  ', '广告']);
    for (const content of ['buy SPAM now', 'ｓｐａｍ', '这是广告']) {
      await expect(validateInput(Comment, { content })).rejects.toMatchObject({ code: 1004, status: 400 });
    }
    await expect(validateInput(Comment, { content: 'a fine comment' })).resolves.toBeDefined();
  });

  it('sees through characters nobody sees: removed control characters, zero-width spaces, soft hyphens', async () => {
    BannedWords.use(['spam']);
    for (const content of ['sp\u0000am', 'sp\u001fam', 's\u200bpam', 'spa\u00adm', 'sp\u200dam']) {
      await expect(validateInput(Comment, { content })).rejects.toMatchObject({ code: 1004 });
    }
    // a line break or a tab is seen, and kept: words on either side stay apart
    for (const content of ['sp\nam', 'sp\tam', 'wasp\namber']) {
      await expect(validateInput(Comment, { content })).resolves.toBeDefined();
    }
  });
});
