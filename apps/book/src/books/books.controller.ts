import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BookByIsbnRequest, BookIdRequest, BookMessages, BookSearchRequest, BookTagsRequest, SeriesBooksRequest } from '@plaza/contracts';
import { BooksService } from './books.service';

@Controller()
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @MessagePattern(BookMessages.getBook.subject)
  get(@Payload() req: BookIdRequest) {
    return this.books.get(req.id, req.caller);
  }

  @MessagePattern(BookMessages.getBookByIsbn.subject)
  byIsbn(@Payload() req: BookByIsbnRequest) {
    return this.books.getByIsbn(req.isbn, req.caller);
  }

  @MessagePattern(BookMessages.search.subject)
  search(@Payload() req: BookSearchRequest) {
    return this.books.search(req.query, req.page, req.caller);
  }

  @MessagePattern(BookMessages.bookTags.subject)
  tags(@Payload() req: BookTagsRequest) {
    return this.books.tags(req.id, req.page);
  }

  @MessagePattern(BookMessages.seriesBooks.subject)
  seriesBooks(@Payload() req: SeriesBooksRequest) {
    return this.books.seriesBooks(req.id, req.page);
  }
}
