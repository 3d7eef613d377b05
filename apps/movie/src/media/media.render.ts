import { MovieComment, MoviePhoto, MovieReview } from '@plaza/contracts';
import { Caps, cutText } from '../common/caps';
import { PhotoDocument, StoredPhoto } from './photo.schema';

/** A photo with its place in the album: neighbours, 1-based position (oldest first) and the album's size. */
export function photoInAlbum(photo: StoredPhoto, album: readonly string[], index: number): MoviePhoto {
  return {
    id: photo.id,
    subject_id: photo.subject_id,
    alt: photo.alt,
    icon: photo.icon,
    image: photo.image,
    thumb: photo.thumb,
    cover: photo.cover,
    created_at: photo.created_at,
    desc: photo.desc,
    author: photo.author,
    album_id: photo.album_id,
    album_title: photo.album_title,
    album_url: photo.album_url,
    next_photo: album[index + 1] ?? '',
    prev_photo: index > 0 ? album[index - 1] : '',
    position: index + 1,
    comments_count: photo.comments_count,
    photos_count: album.length,
  };
}

/** Photos `start..start+count` of an album whose ordered ids are `album`. */
export function albumPage(docs: PhotoDocument[], album: readonly string[], start: number): MoviePhoto[] {
  return docs.map((doc) => {
    const index = album.indexOf(doc.photo.id, start);
    return photoInAlbum(doc.photo, album, index);
  });
}

export const reviewForOutput = (review: MovieReview): MovieReview => ({ ...review, summary: cutText(review.summary, Caps.reviewSummary) });

export const commentForOutput = (comment: MovieComment): MovieComment => ({ ...comment, content: cutText(comment.content, Caps.commentContent) });
