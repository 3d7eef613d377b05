import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BookMessages, BookReviewsRequest, reconcileMessage, ReconcileRequest, ReviewCreateRequest, ReviewDeleteRequest, ReviewGetRequest, ReviewUpdateRequest } from '@plaza/contracts';
import { ReviewsService } from './reviews.service';

@Controller()
export class ReviewsController {
  constructor(private readonly reviews: ReviewsService) {}

  @MessagePattern(BookMessages.createReview.subject)
  create(@Payload() req: ReviewCreateRequest) {
    return this.reviews.create(req.input, req.caller);
  }

  @MessagePattern(BookMessages.updateReview.subject)
  update(@Payload() req: ReviewUpdateRequest) {
    return this.reviews.update(req.id, req.input, req.caller);
  }

  @MessagePattern(BookMessages.deleteReview.subject)
  remove(@Payload() req: ReviewDeleteRequest) {
    return this.reviews.remove(req.id, req.caller);
  }

  @MessagePattern(BookMessages.getReview.subject)
  get(@Payload() req: ReviewGetRequest) {
    return this.reviews.get(req.id);
  }

  @MessagePattern(BookMessages.bookReviews.subject)
  listByBook(@Payload() req: BookReviewsRequest) {
    return this.reviews.listByBook(req.id, req.page);
  }

  /** The book service's reconciliation (npm run reconcile): the books' users' rating and tags. */
  @MessagePattern(reconcileMessage('book').subject)
  reconcile(@Payload() req: ReconcileRequest) {
    return this.reviews.reconcile(req.repair ?? true);
  }
}
