import { Controller, Inject } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { exportPageMessage, ExportPageRequest, ExportPageResponse } from '@plaza/contracts';
import { APP_CONFIG } from '@plaza/platform';
import { ExportStep, exportTime, readExportPage } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { IdentityConfig } from '../config/identity.config';

/**
 * `identity.v1.export.page` (docs/api/export.md): the user's profile as a `user` import record.
 * Neither the password (only its hash is kept) nor the friends (others' records too) are exported.
 */
@Controller()
export class IdentityExportController {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
  ) {}

  @MessagePattern(exportPageMessage('identity').subject)
  page(@Payload() req: ExportPageRequest): Promise<ExportPageResponse> {
    return readExportPage(this.connection, identityExportSteps(req.user_id, this.config.PUBLIC_WEB_URL), req);
  }
}

/**
 * `avatar` and `alt` as the import filled them from PUBLIC_WEB_URL are left out, so the stack the
 * archive is imported into fills its own (docs/api/import.md, "Addresses may be absent").
 */
export function identityExportSteps(userId: string, publicWebUrl: string): ExportStep[] {
  const web = publicWebUrl.replace(/\/$/, '');
  return [
    {
      collection: 'users',
      filter: { _id: userId },
      toRecord: (d) => ({
        record: {
          kind: 'user', id: String(d._id), uid: d.uid, name: d.name,
          ...optional(d, ['signature', 'loc_id', 'loc_name', 'desc']),
          ...(d.avatar && d.avatar !== `${web}/avatars/${String(d.uid)}.png` ? { avatar: d.avatar } : {}),
          ...(d.alt && d.alt !== `${web}/people/${String(d.uid)}/` ? { alt: d.alt } : {}),
          created: exportTime(d.created),
        },
      }),
    },
  ];
}

function optional(doc: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => typeof doc[f] === 'string' && doc[f] !== '').map((f) => [f, doc[f]]));
}
