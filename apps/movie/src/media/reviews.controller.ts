import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ApiError, MovieMessages, MovieReview, MovieReviewRequest } from '@plaza/contracts';
import { ReviewsRepository } from './reviews.repository';

/** One review by id, for its web page (docs/api/web.md): the whole `summary` as loaded, which the lists cut to 100 characters. */
@Controller()
export class MovieReviewsController {
  constructor(private readonly reviews: ReviewsRepository) {}

  @MessagePattern(MovieMessages.getReview.subject)
  async get(@Payload() req: MovieReviewRequest): Promise<MovieReview> {
    const [doc] = await this.reviews.byIds([req.id]);
    if (!doc) throw new ApiError('uri_not_found', `no movie review ${req.id}`);
    return doc.review;
  }
}
