import { Controller } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportPageMessage, ExportPageRequest, ExportPageResponse, ExportPicture } from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { ExportStep, exportTime, readExportPage } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { DEFAULT_LAYOUT } from '../notes/note-pictures.merge';
import type { NotePhoto } from '../notes/note.schema';

/**
 * `note.v1.export.page` (docs/api/export.md): the user's notes of every privacy (only their
 * owner's export asks), the comments they wrote and their likes, as import records of the kinds
 * `note`, `note_comment` and `note_like`. A stored picture is named by its path in the archive, a
 * picture imported by its address keeps the address.
 */
@Controller()
export class NoteExportController {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  @MessagePattern(exportPageMessage('note').subject)
  page(@Payload() req: ExportPageRequest): Promise<ExportPageResponse> {
    return readExportPage(this.connection, noteExportSteps(req.user_id), req);
  }
}

export function noteExportSteps(userId: string): ExportStep[] {
  return [
    {
      collection: 'notes',
      filter: { author_id: userId },
      toRecord: (d) => {
        const pictures: ExportPicture[] = [];
        const photos: Record<string, string | { src: string; layout: string; desc: string }> = {};
        for (const photo of (d.photos ?? []) as NotePhoto[]) {
          let src: string | undefined;
          if (photo.key) {
            src = `pictures/${PictureStore.fileName(photo.key, photo.format)}`;
            pictures.push({ key: photo.key, format: photo.format, file: src });
          } else if (photo.url) {
            src = photo.url;
          }
          if (!src) continue;
          // the layout and caption later `<图片p_N>` references take, when they are not the defaults
          const plain = (photo.layout ?? DEFAULT_LAYOUT) === DEFAULT_LAYOUT && !photo.caption;
          photos[String(photo.number)] = plain ? src : { src, layout: photo.layout, desc: photo.caption ?? '' };
        }
        return {
          record: {
            kind: 'note', id: String(d._id), author_id: userId, title: d.title, content: d.content, privacy: d.privacy,
            can_reply: d.can_reply, publish_time: exportTime(d.publish_time), update_time: exportTime(d.update_time),
            ...(Object.keys(photos).length ? { photos } : {}),
          },
          pictures,
        };
      },
    },
    {
      collection: 'note_comments',
      filter: { author_id: userId },
      toRecord: (d) => ({ record: { kind: 'note_comment', id: String(d._id), note_id: d.note_id, author_id: userId, content: d.content, created: exportTime(d.created) } }),
    },
    {
      collection: 'note_likes',
      filter: { user_id: userId },
      toRecord: (d) => ({ record: { kind: 'note_like', note_id: d.note_id, user_id: userId, created: exportTime(d.created) } }),
    },
  ];
}
