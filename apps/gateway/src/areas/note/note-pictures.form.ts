import { ApiError, MAX_NOTE_CAPTION_LENGTH, MAX_NOTE_PICTURES_PER_REQUEST, NotePictureLayout, NotePictureLayouts, NotePictureText } from '@plaza/contracts';
import { RequestBody, UploadedFile } from '../../pictures/multipart-body';
import { pictureNumber } from '../../pictures/picture-uploads';

export interface NotePictureParts {
  files: Array<UploadedFile & { number: number }>;
  texts: NotePictureText[];
}

const NUMBER = '([1-9]\\d{0,2})';
const TEXT_FIELD = new RegExp(`^(layout|desc)_(?:p_)?${NUMBER}$`);
const PID = new RegExp(`^(?:p_)?${NUMBER}$`, 'i');

/**
 * The picture parameters of a note write (docs/api/note.md, "Pictures", and docs/api/README.md,
 * "Pictures"): parts `image_N` / `image_p_N`, fields `layout_N`, `desc_N` (or `layout_p_N`,
 * `desc_p_N`) and `pids`, a comma-separated list like `p_1,p_2`. Checked before any picture is
 * stored: more than 3 pictures, a number given twice, a bad layout or pid: 400/1016; a pid
 * without its image: 400/1002; when `pids` is sent it must name every image.
 */
export function readNotePictureParts(body: RequestBody): NotePictureParts {
  const files: NotePictureParts['files'] = [];
  for (const file of body.files) {
    const number = pictureNumber(file.field, ['image_p_', 'image_']);
    if (number === undefined) continue; // not a picture part: ignored like any unknown parameter
    if (files.some((f) => f.number === number)) throw new ApiError('invalid_args', `picture ${number} given twice`);
    files.push({ ...file, number });
  }
  if (files.length > MAX_NOTE_PICTURES_PER_REQUEST) {
    throw new ApiError('invalid_args', `at most ${MAX_NOTE_PICTURES_PER_REQUEST} pictures per request`);
  }

  const texts = new Map<number, NotePictureText>();
  for (const [name, value] of Object.entries(body.fields)) {
    const match = TEXT_FIELD.exec(name);
    if (!match) continue;
    const number = Number(match[2]);
    const text = texts.get(number) ?? { number };
    texts.set(number, text);
    if (match[1] === 'layout') {
      if (value.trim() === '') continue;
      const layout = value.trim().toUpperCase() as NotePictureLayout;
      if (!NotePictureLayouts.includes(layout)) throw new ApiError('invalid_args', `${name} must be L, C or R`);
      if (text.layout !== undefined) throw new ApiError('invalid_args', `layout of picture ${number} given twice`);
      text.layout = layout;
    } else {
      if ([...value].length > MAX_NOTE_CAPTION_LENGTH) throw new ApiError('invalid_args', `${name} is longer than ${MAX_NOTE_CAPTION_LENGTH} characters`);
      if (text.caption !== undefined) throw new ApiError('invalid_args', `caption of picture ${number} given twice`);
      text.caption = value;
    }
  }

  const pids = body.fields.pids?.trim();
  if (pids) {
    const listed = new Set(
      pids.split(',').map((pid) => pid.trim()).filter(Boolean).map((pid) => {
        const match = PID.exec(pid);
        if (!match) throw new ApiError('invalid_args', `pids: ${pid} is not a picture number like p_1`);
        return Number(match[1]);
      }),
    );
    if (listed.size > MAX_NOTE_PICTURES_PER_REQUEST) throw new ApiError('invalid_args', `at most ${MAX_NOTE_PICTURES_PER_REQUEST} pictures per request`);
    for (const number of listed) {
      if (!files.some((f) => f.number === number)) throw new ApiError('missing_args', `image_p_${number} is missing`);
    }
    for (const file of files) {
      if (!listed.has(file.number)) throw new ApiError('invalid_args', `picture ${file.number} is not listed in pids`);
    }
  }
  return { files, texts: [...texts.values()] };
}
