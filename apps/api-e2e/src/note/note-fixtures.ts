import { MongoClient } from 'mongodb';
import { connect, NatsConnection } from 'nats';
import { tokenFor } from '../support/auth';
import { ONE_PIXEL_PNG, user } from '../support/fixtures';
import { expectStatus, post } from '../support/http';
import { natsOptionsAs, stackInfo } from '../support/stack-info';

/**
 * Users of fixtures/note.ndjson (ids 4000s), one group per spec file so files running side by
 * side never touch each other's notes. Friendships: pia–finn, paul–fay, lea–lee.
 */
export const NoteUsers = {
  // notes-crud
  nina: user('4001', 'note_nina', 'Nina 妮娜'),
  otto: user('4002', 'note_otto', 'Otto'),
  // notes-privacy
  pia: user('4011', 'note_pia', 'Pia'),
  finn: user('4012', 'note_finn', 'Finn'),
  sam: user('4013', 'note_sam', 'Sam'),
  // notes-markup
  mia: user('4021', 'note_mia', 'Mia'),
  // notes-pictures
  paul: user('4031', 'note_paul', 'Paul'),
  fay: user('4032', 'note_fay', 'Fay'),
  stu: user('4033', 'note_stu', 'Stu'),
  // notes-likes
  lea: user('4041', 'note_lea', 'Lea'),
  lou: user('4042', 'note_lou', 'Lou'),
  lia: user('4043', 'note_lia', 'Lia'),
  lee: user('4044', 'note_lee', 'Lee'),
  // notes-comments
  cora: user('4051', 'note_cora', 'Cora'),
  cole: user('4052', 'note_cole', 'Cole'),
  cid: user('4053', 'note_cid', 'Cid'),
  // notes-limits
  lena: user('4061', 'note_lena', 'Lena'),
  // notes-users: uids made of digits
  abe: user('4071', 'note_abe', 'Abe'),
  digits: user('4073', '4071', 'Digits'),
  nines: user('4075', '4099', 'Nines'),
};

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Pictures as bytes: what decides the format is the content, never the name. */
export const Pictures = {
  png: ONE_PIXEL_PNG,
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  /** An image, but of a format notes do not take: 400/1008. */
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  /** No image at all: 400/1009. */
  text: Buffer.from('this is not a picture, whatever its name says'),
};

/** A multipart body of text fields and picture parts (each named `picture.png`, which must not matter). */
export function multipart(fields: Record<string, string>, files: Record<string, Buffer> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, bytes] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'picture.png');
  return form;
}

/** Creates a note and returns it, failing the test with the answer when it is not 201. */
export async function createNote(token: string, fields: Record<string, string | boolean>): Promise<NoteBody> {
  const res = await post('/v2/notes', { token, json: fields });
  expectStatus(res, 201);
  return res.body as NoteBody;
}

export { expectStatus };

export interface NoteBody {
  id: string;
  alt: string;
  title: string;
  summary: string;
  content: string;
  privacy: 'public' | 'friend' | 'private';
  can_reply: boolean;
  photos: Record<string, string>;
  update_time: string;
  publish_time: string;
  comments_count: number;
  liked_count: number;
  recs_count: number;
  author: { id: string; uid: string; name: string; signature: string; alt: string; avatar: string };
}

export const tokensOf = async <K extends keyof typeof NoteUsers>(...names: K[]): Promise<Record<K, string>> =>
  Object.fromEntries(await Promise.all(names.map(async (n) => [n, await tokenFor(NoteUsers[n])]))) as Record<K, string>;

/** A picture address as a path and query on the stack's gateway. */
export function pathOf(address: string): string {
  const url = new URL(address);
  return `${url.pathname}${url.search}`;
}

/** The note service's own database, to check that deletes leave nothing behind. */
export async function withNoteDatabase<T>(use: (db: ReturnType<MongoClient['db']>) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(stackInfo().mongoUrl);
  try {
    return await use(client.db('note'));
  } finally {
    await client.close();
  }
}

/** Keys of the note pictures in the shared picture store (staged ones included). */
export async function notePictureKeys(): Promise<Set<string>> {
  // as the note service, which lists the store to sweep its staged pictures
  const nc: NatsConnection = await connect(natsOptionsAs('note'));
  try {
    const os = await nc.jetstream().views.os('pictures');
    const infos = await os.list();
    return new Set(infos.filter((i) => !i.deleted && i.metadata?.area === 'note').map((i) => i.name));
  } finally {
    await nc.close();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
