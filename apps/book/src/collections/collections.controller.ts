import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  BookMessages, CollectionDeleteRequest, CollectionGetRequest, CollectionWriteRequest, UserCollectionsRequest, UserTagsRequest,
} from '@plaza/contracts';
import { CollectionsService } from './collections.service';

@Controller()
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @MessagePattern(BookMessages.createCollection.subject)
  create(@Payload() req: CollectionWriteRequest) {
    return this.collections.create(req.bookId, req.input, req.caller);
  }

  @MessagePattern(BookMessages.updateCollection.subject)
  update(@Payload() req: CollectionWriteRequest) {
    return this.collections.update(req.bookId, req.input, req.caller);
  }

  @MessagePattern(BookMessages.deleteCollection.subject)
  remove(@Payload() req: CollectionDeleteRequest) {
    return this.collections.remove(req.bookId, req.caller);
  }

  @MessagePattern(BookMessages.getCollection.subject)
  get(@Payload() req: CollectionGetRequest) {
    return this.collections.get(req.bookId, req.query, req.caller);
  }

  @MessagePattern(BookMessages.userCollections.subject)
  listByUser(@Payload() req: UserCollectionsRequest) {
    return this.collections.listByUser(req.user, req.query, req.page, req.caller);
  }

  @MessagePattern(BookMessages.userTags.subject)
  userTags(@Payload() req: UserTagsRequest) {
    return this.collections.userTags(req.user, req.page, req.caller);
  }
}
