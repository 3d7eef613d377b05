import { ApiError, PictureRef } from '@plaza/contracts';
import { mergePictures, pictureTexts } from './note-pictures.merge';
import { NotePhoto } from './note.schema';

const ref = (number: number): PictureRef => ({ number, key: `note-${String(number).padStart(32, '0')}`, format: 'png', size: 10, width: 1, height: 1 });
const photo = (number: number, layout: NotePhoto['layout'] = 'C', caption = ''): NotePhoto => ({ ...ref(number), layout, caption });

describe('mergePictures', () => {
  it('adds new pictures in number order with their layouts and captions (C and none by default)', () => {
    const { photos, added } = mergePictures([photo(2)], { pictures: [ref(3), ref(1)], texts: [{ number: 1, layout: 'L', caption: 'one' }] });
    expect(photos.map((p) => [p.number, p.layout, p.caption])).toEqual([[1, 'L', 'one'], [2, 'C', ''], [3, 'C', '']]);
    expect(added.map((p) => p.number)).toEqual([1, 3]);
  });

  it('changes layout and caption of an existing picture, without touching the original', () => {
    const existing = [photo(1, 'L', 'old')];
    const { photos, added } = mergePictures(existing, { pictures: [], texts: [{ number: 1, caption: 'new' }, { number: 9, layout: 'R' }] });
    expect(photos).toEqual([photo(1, 'L', 'new')]);
    expect(added).toEqual([]);
    expect(existing[0].caption).toBe('old');
  });

  it('refuses a number the note already uses with 400/1016', () => {
    expect(() => mergePictures([photo(1)], { pictures: [ref(1)], texts: [] })).toThrow(ApiError);
    try {
      mergePictures([photo(1)], { pictures: [ref(1)], texts: [] });
    } catch (err) {
      expect((err as ApiError).code).toBe(1016);
    }
  });

  it('refuses more than 100 pictures in one note', () => {
    const existing = Array.from({ length: 99 }, (_, i) => photo(i + 1));
    expect(mergePictures(existing, { pictures: [ref(100)], texts: [] }).photos).toHaveLength(100);
    expect(() => mergePictures(existing, { pictures: [ref(100), ref(101)], texts: [] })).toThrow(ApiError);
  });
});

describe('pictureTexts', () => {
  it('gives layout and caption by number, undefined for a picture the note lacks', () => {
    const texts = pictureTexts([photo(2, 'R', 'two')]);
    expect(texts(2)).toEqual({ layout: 'R', caption: 'two' });
    expect(texts(1)).toBeUndefined();
  });
});
