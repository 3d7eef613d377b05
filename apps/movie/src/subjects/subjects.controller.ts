import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MovieImdbRequest, MovieMessages, MovieSearchRequest, MovieSubjectPageRequest, MovieSubjectRequest } from '@plaza/contracts';
import { SearchService } from './search.service';
import { SubjectsService } from './subjects.service';

@Controller()
export class SubjectsController {
  constructor(
    private readonly subjects: SubjectsService,
    private readonly searcher: SearchService,
  ) {}

  @MessagePattern(MovieMessages.getSubject.subject)
  get(@Payload() req: MovieSubjectRequest) {
    return this.subjects.subject(req.id, req.caller.tier);
  }

  @MessagePattern(MovieMessages.getSubjectByImdb.subject)
  byImdb(@Payload() req: MovieImdbRequest) {
    return this.subjects.subjectByImdb(req.imdb, req.caller.tier);
  }

  @MessagePattern(MovieMessages.subjectPhotos.subject)
  photos(@Payload() req: MovieSubjectPageRequest) {
    return this.subjects.photoPage(req);
  }

  @MessagePattern(MovieMessages.subjectReviews.subject)
  reviews(@Payload() req: MovieSubjectPageRequest) {
    return this.subjects.reviewPage(req);
  }

  @MessagePattern(MovieMessages.subjectComments.subject)
  comments(@Payload() req: MovieSubjectPageRequest) {
    return this.subjects.commentPage(req);
  }

  @MessagePattern(MovieMessages.search.subject)
  search(@Payload() req: MovieSearchRequest) {
    return this.searcher.search(req);
  }
}
