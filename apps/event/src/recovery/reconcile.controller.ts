import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { reconcileMessage, ReconcileRequest } from '@plaza/contracts';
import { EventRepair } from './event-repair';

@Controller()
export class EventReconcileController {
  constructor(private readonly repair: EventRepair) {}

  @MessagePattern(reconcileMessage('event').subject)
  run(@Payload() req: ReconcileRequest) {
    return this.repair.reconcile(req.repair ?? true);
  }
}
