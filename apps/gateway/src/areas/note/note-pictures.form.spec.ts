import { ApiError } from '@plaza/contracts';
import { readNotePictureParts } from './note-pictures.form';

const file = (field: string) => ({ field, bytes: Buffer.from(field) });
const codeOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : -1;
  }
  return undefined;
};

describe('readNotePictureParts', () => {
  it('reads image_N and image_p_N parts with their layouts and captions', () => {
    const parts = readNotePictureParts({
      fields: { pids: 'p_1, p_2', layout_1: 'l', desc_1: 'one', layout_p_2: 'R', desc_p_2: '', title: 't' },
      files: [file('image_1'), file('image_p_2'), file('avatar')],
    });
    expect(parts.files.map((f) => f.number)).toEqual([1, 2]);
    expect(parts.texts).toEqual([
      { number: 1, layout: 'L', caption: 'one' },
      { number: 2, layout: 'R', caption: '' },
    ]);
  });

  it('takes no pids as "the images sent"', () => {
    expect(readNotePictureParts({ fields: {}, files: [file('image_3')] }).files.map((f) => f.number)).toEqual([3]);
  });

  it.each([
    ['more than 3 pictures', { fields: {}, files: [file('image_1'), file('image_2'), file('image_3'), file('image_4')] }, 1016],
    ['a number given twice', { fields: {}, files: [file('image_1'), file('image_p_1')] }, 1016],
    ['a bad layout', { fields: { layout_1: 'X' }, files: [file('image_1')] }, 1016],
    ['a layout given twice', { fields: { layout_1: 'L', layout_p_1: 'R' }, files: [file('image_1')] }, 1016],
    ['a caption over 500 characters', { fields: { desc_1: 'x'.repeat(501) }, files: [file('image_1')] }, 1016],
    ['a malformed pid', { fields: { pids: 'p_x' }, files: [] }, 1016],
    ['more than 3 pids', { fields: { pids: 'p_1,p_2,p_3,p_4' }, files: [] }, 1016],
    ['a pid without its image', { fields: { pids: 'p_1,p_2' }, files: [file('image_1')] }, 1002],
    ['an image missing from pids', { fields: { pids: 'p_1' }, files: [file('image_1'), file('image_2')] }, 1016],
  ])('refuses %s', (_, body, code) => {
    expect(codeOf(() => readNotePictureParts(body))).toBe(code);
  });
});
