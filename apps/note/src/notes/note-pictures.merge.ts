import { ApiError, NotePictureUploads } from '@plaza/contracts';
import { PictureText } from '../markup/note-markup';
import { NotePhoto } from './note.schema';

/** Pictures one note may hold in all (each request adds at most 3). */
export const MAX_PICTURES_PER_NOTE = 100;
export const DEFAULT_LAYOUT = 'C';

/**
 * A note's pictures after a write adds `uploads` to `existing`. A new picture must take a number
 * the note does not use yet (400/1016, as for annotations: to change a picture, upload a new one
 * and change the reference). `layout_N`/`desc_N` set how references to picture N show, for new
 * pictures and existing ones alike; those naming no picture are ignored like any unknown parameter.
 */
export function mergePictures(existing: NotePhoto[], uploads: NotePictureUploads): { photos: NotePhoto[]; added: NotePhoto[] } {
  const byNumber = new Map(existing.map((p) => [p.number, { ...p }]));
  const texts = new Map(uploads.texts.map((t) => [t.number, t]));
  const added: NotePhoto[] = [];
  for (const ref of uploads.pictures) {
    if (byNumber.has(ref.number)) throw new ApiError('invalid_args', `picture ${ref.number} is already in the note or the request`);
    const text = texts.get(ref.number);
    const photo: NotePhoto = {
      number: ref.number, key: ref.key, format: ref.format, width: ref.width, height: ref.height, size: ref.size,
      layout: text?.layout ?? DEFAULT_LAYOUT, caption: text?.caption ?? '',
    };
    byNumber.set(ref.number, photo);
    added.push(photo);
  }
  if (byNumber.size > MAX_PICTURES_PER_NOTE) throw new ApiError('invalid_args', `a note holds at most ${MAX_PICTURES_PER_NOTE} pictures`);
  for (const text of uploads.texts) {
    const photo = byNumber.get(text.number);
    if (!photo || added.includes(photo)) continue;
    if (text.layout) photo.layout = text.layout;
    if (text.caption !== undefined) photo.caption = text.caption;
  }
  const byNumberOrder = (a: NotePhoto, b: NotePhoto) => a.number - b.number;
  return { photos: [...byNumber.values()].sort(byNumberOrder), added: added.sort(byNumberOrder) };
}

/** How a reference to each picture shows, for normalizeNoteContent. */
export function pictureTexts(photos: NotePhoto[]): (n: number) => PictureText | undefined {
  const byNumber = new Map(photos.map((p) => [p.number, p]));
  return (n) => {
    const photo = byNumber.get(n);
    return photo && { layout: photo.layout, caption: photo.caption };
  };
}

/** The stored pictures' keys (a picture imported by its address has none). */
export const keysOf = (photos: NotePhoto[]) => photos.filter((p) => p.key !== '').map((p) => p.key);
