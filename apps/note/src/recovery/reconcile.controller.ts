import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { reconcileMessage, ReconcileRequest } from '@plaza/contracts';
import { NoteRepair } from './note-repair';

@Controller()
export class NoteReconcileController {
  constructor(private readonly repair: NoteRepair) {}

  @MessagePattern(reconcileMessage('note').subject)
  run(@Payload() req: ReconcileRequest) {
    return this.repair.reconcile(req.repair ?? true);
  }
}
