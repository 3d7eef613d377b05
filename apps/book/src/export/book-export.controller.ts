import { Controller } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportPageMessage, ExportPageRequest, ExportPageResponse, ExportPicture } from '@plaza/contracts';
import { PictureStore } from '@plaza/pictures';
import { ExportStep, exportTime, readExportPage } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import type { StoredPhoto } from '../annotations/annotation.schema';

/**
 * `book.v1.export.page` (docs/api/export.md): the user's collection entries, reviews and
 * annotations (private ones included: only their owner's export asks), as import records of the
 * kinds `collection`, `book_review` and `annotation`, the annotations' pictures named by their
 * path in the archive.
 */
@Controller()
export class BookExportController {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  @MessagePattern(exportPageMessage('book').subject)
  page(@Payload() req: ExportPageRequest): Promise<ExportPageResponse> {
    return readExportPage(this.connection, bookExportSteps(req.user_id), req);
  }
}

export function bookExportSteps(userId: string): ExportStep[] {
  return [
    {
      collection: 'collections',
      filter: { user_id: userId },
      toRecord: (d) => ({
        record: {
          kind: 'collection', id: String(d.id), user_id: userId, book_id: d.book_id, status: d.status,
          ...(typeof d.rating === 'number' && d.rating > 0 ? { rating: d.rating } : {}),
          tags: d.tags ?? [], comment: d.comment ?? '', privacy: d.private ? 'private' : 'public',
          created: exportTime(d.created), updated: exportTime(d.updated),
        },
      }),
    },
    {
      collection: 'reviews',
      filter: { author_id: userId },
      toRecord: (d) => ({
        record: {
          kind: 'book_review', id: String(d._id), book_id: d.book_id, author_id: userId, title: d.title, content: d.content,
          ...(typeof d.rating === 'number' && d.rating > 0 ? { rating: d.rating } : {}),
          votes: d.votes ?? 0, useless: d.useless ?? 0, comments: d.comments ?? 0,
          published: exportTime(d.published), updated: exportTime(d.updated),
        },
      }),
    },
    {
      collection: 'annotations',
      filter: { author_id: userId },
      toRecord: (d) => {
        const stored = (d.photos ?? {}) as Record<string, StoredPhoto>;
        const pictures: ExportPicture[] = [];
        const photos: Record<string, string> = {};
        for (const [number, photo] of Object.entries(stored)) {
          const file = `pictures/${PictureStore.fileName(photo.key, photo.format)}`;
          pictures.push({ key: photo.key, format: photo.format, file });
          photos[number] = file;
        }
        return {
          record: {
            kind: 'annotation', id: String(d._id), book_id: d.book_id, author_id: userId, content: d.content,
            ...(typeof d.page_no === 'number' ? { page_no: d.page_no } : {}),
            ...(d.chapter ? { chapter: d.chapter } : {}),
            privacy: d.private ? 'private' : 'public', comments_count: d.comments_count ?? 0,
            created: exportTime(d.created), updated: exportTime(d.updated),
            ...(pictures.length ? { photos } : {}),
          },
          pictures,
        };
      },
    },
  ];
}
