import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AnnotationCreateRequest, AnnotationDeleteRequest, AnnotationGetRequest, AnnotationUpdateRequest, BookAnnotationsRequest, BookMessages,
  UserAnnotationsRequest,
} from '@plaza/contracts';
import { AnnotationsService } from './annotations.service';

@Controller()
export class AnnotationsController {
  constructor(private readonly annotations: AnnotationsService) {}

  @MessagePattern(BookMessages.createAnnotation.subject)
  create(@Payload() req: AnnotationCreateRequest) {
    return this.annotations.create(req.bookId, req.input, req.pictures, req.caller);
  }

  @MessagePattern(BookMessages.updateAnnotation.subject)
  update(@Payload() req: AnnotationUpdateRequest) {
    return this.annotations.update(req.id, req.input, req.pictures, req.caller);
  }

  @MessagePattern(BookMessages.deleteAnnotation.subject)
  remove(@Payload() req: AnnotationDeleteRequest) {
    return this.annotations.remove(req.id, req.caller);
  }

  @MessagePattern(BookMessages.getAnnotation.subject)
  get(@Payload() req: AnnotationGetRequest) {
    return this.annotations.get(req.id, req.query, req.caller);
  }

  @MessagePattern(BookMessages.bookAnnotations.subject)
  listByBook(@Payload() req: BookAnnotationsRequest) {
    return this.annotations.listByBook(req.bookId, req.query, req.page);
  }

  @MessagePattern(BookMessages.userAnnotations.subject)
  listByUser(@Payload() req: UserAnnotationsRequest) {
    return this.annotations.listByUser(req.user, req.query, req.page, req.caller);
  }
}
