import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MovieListRequest, MovieMessages } from '@plaza/contracts';
import { ListsService } from './lists.service';

@Controller()
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @MessagePattern(MovieMessages.getList.subject)
  get(@Payload() req: MovieListRequest) {
    return this.lists.list(req);
  }
}
