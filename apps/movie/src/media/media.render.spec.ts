import { albumPage, commentForOutput, photoInAlbum, reviewForOutput } from './media.render';
import { PhotoDocument, StoredPhoto } from './photo.schema';
import { MovieComment, MovieReview } from '@plaza/contracts';

const stored = (id: string) => ({ id, subject_id: 's', alt: '', icon: '', image: '', thumb: '', cover: '', created_at: '', desc: '', author: {}, album_id: 'a', album_title: '', album_url: '', comments_count: 0 }) as unknown as StoredPhoto;

describe('photos in their album', () => {
  const album = ['p1', 'p2', 'p3'];

  it('gives neighbours, a 1-based position and the album size', () => {
    expect(photoInAlbum(stored('p1'), album, 0)).toMatchObject({ prev_photo: '', next_photo: 'p2', position: 1, photos_count: 3 });
    expect(photoInAlbum(stored('p3'), album, 2)).toMatchObject({ prev_photo: 'p2', next_photo: '', position: 3, photos_count: 3 });
  });

  it('places each photo of a page by its id, skipping ids with no photo', () => {
    const docs = [{ photo: stored('p3') }] as PhotoDocument[];
    expect(albumPage(docs, album, 1).map((p) => [p.id, p.position])).toEqual([['p3', 3]]);
  });
});

it('cuts review summaries to 100 and comment contents to 140 characters', () => {
  expect(reviewForOutput({ summary: 'x'.repeat(150) } as MovieReview).summary).toHaveLength(100);
  expect(commentForOutput({ content: '字'.repeat(200) } as MovieComment).content).toHaveLength(140);
});
