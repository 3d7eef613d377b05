import {
  AccountDeleteInput, AnnotationInput, CollectionInput, MovieTier, NoteCommentInput, NoteInput, NotePicturesInput, ParticipateBody, ReviewCreateInput,
  ReviewUpdateInput, Scope,
} from '@plaza/contracts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * - `public`: anyone; a token, if sent, must be valid and carry the scope.
 * - `user`: a logged-in user (a token with a user) is required: no token, or a client-only
 *   token, gives 403/1000.
 * - `token`: a token is required, an app's (client credentials) or a user's; none gives 403/1000.
 */
export type Access = 'public' | 'user' | 'token';

export interface Paging {
  defaultCount: number;
  maxCount: number;
}

export interface CachePolicy {
  /** Seconds a cached answer may live even without an invalidation. */
  ttlSeconds: number;
  /** Areas whose import or write invalidates it; plus per-resource tags from the params. */
  area: 'book' | 'movie' | 'event';
  /** Tags from the path parameters and the answer (a search result is tagged with each book it lists). */
  tags?: (params: Record<string, string>, body: unknown) => string[];
}

/** Tags `<prefix><id>` for each element of a list answer, e.g. `book:<id>` for every book of a search. */
export const tagsOfList = (listKey: string, prefix: string) => (_: Record<string, string>, body: unknown): string[] => {
  const items = (body as Record<string, unknown> | undefined)?.[listKey];
  return Array.isArray(items) ? items.map((item) => `${prefix}${(item as { id?: unknown }).id}`) : [];
};

/**
 * A request body. Bodies are read by hand (they may be multipart, with pictures streamed beside
 * the fields), so the handler validates them against `dto`, and the OpenAPI document describes
 * them from the same class: the handler takes the class from its row, so the two cannot differ.
 */
export interface BodySpec<T extends object = object> {
  /** The class-validator DTO the text fields (form, JSON or multipart) are validated against. */
  dto: new () => T;
  /** Picture parts beside the fields (multipart/form-data): annotation parts `1`, `2`...; note parts `image_N`. */
  pictures?: 'annotation' | 'note';
}

export interface EndpointDefinition {
  method: HttpMethod;
  /** Path with the wildcards of docs/api/README.md ("Addresses"): `:id` digits only, `:name` letters, digits and `-_.`. */
  path: string;
  /** The scope a token must carry; `anyOf` accepts any of several. Null: no scope needed. */
  scope: Scope | { anyOf: Scope[] } | null;
  access: Access;
  /** Movie tiers that may call it (docs/api/README.md, "Tiers and scopes"); a caller of another tier gets 404/1001. */
  tiers?: MovieTier[];
  /** For list responses: the array to which `fields` applies. */
  listKey?: string;
  /** Offset paging (`start`, `count`), validated at the edge. */
  paging?: Paging;
  /** Counted against the movie basic-tier per-minute limit. */
  movieLimit?: boolean;
  /** Not counted against any rate limit (picture bytes, which pages load many at a time). */
  unlimited?: boolean;
  /** Repeated reads may be answered from the gateway's response cache. */
  cache?: CachePolicy;
  /** Success status when it is not 200. */
  status?: number;
  /** Marked deprecated in the OpenAPI document. */
  deprecated?: boolean;
  /** The body a POST or PUT takes (query parameters come from the handler's `@Query()` DTO). */
  body?: BodySpec;
  /** Error statuses this endpoint answers beyond those every endpoint of its kind may (OpenAPI document). */
  errorStatuses?: number[];
  summary: string;
}

const movieRead: { anyOf: Scope[] } = { anyOf: ['movie_basic_r', 'movie_advance_r', 'movie_premium_r'] };
const BAP: MovieTier[] = ['basic', 'advance', 'premium'];
const BA: MovieTier[] = ['basic', 'advance'];
const AP: MovieTier[] = ['advance', 'premium'];
const A: MovieTier[] = ['advance'];
const page = (defaultCount: number, maxCount = 100): Paging => ({ defaultCount, maxCount });
const CATALOGUE_TTL = 300;

/**
 * Every endpoint of the public interface, in one table: scopes, access, tiers, list shapes and
 * paging are declared here and nowhere else. Controllers bind to entries with `@Endpoint()`.
 */
export const Endpoints = {
  // ---- books (docs/api/book.md: "Books", "Collections", "Annotations", "Reviews") ----
  bookGet: { method: 'GET', path: '/v2/book/:id', scope: 'book_basic_r', access: 'public', summary: 'A book',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'book', tags: (p) => [`book:${p.id}`] } },
  bookByIsbn: { method: 'GET', path: '/v2/book/isbn/:name', scope: 'book_basic_r', access: 'public', summary: 'A book by ISBN',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'book', tags: (p) => [`isbn:${p.name}`] } },
  bookSearch: { method: 'GET', path: '/v2/book/search', scope: 'book_basic_r', access: 'public', listKey: 'books', paging: page(20, 100), summary: 'Search books by q or tag',
    cache: { ttlSeconds: 60, area: 'book', tags: tagsOfList('books', 'book:') } },
  bookTags: { method: 'GET', path: '/v2/book/:id/tags', scope: 'book_basic_r', access: 'public', listKey: 'tags', paging: page(20, 50), summary: "A book's top tags",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'book', tags: (p) => [`book:${p.id}`] } },
  userBookTags: { method: 'GET', path: '/v2/book/user/:name/tags', scope: 'book_basic_r', access: 'public', listKey: 'tags', paging: page(20), summary: "A user's collection tags" },
  userCollections: { method: 'GET', path: '/v2/book/user/:name/collections', scope: 'book_basic_r', access: 'public', listKey: 'collections', paging: page(20), summary: "A user's collections" },
  bookCollectionGet: { method: 'GET', path: '/v2/book/:id/collection', scope: 'book_basic_r', access: 'public', summary: "A user's collection entry for a book" },
  userAnnotations: { method: 'GET', path: '/v2/book/user/:name/annotations', scope: 'book_basic_r', access: 'public', listKey: 'annotations', paging: page(20), summary: "A user's annotations" },
  bookAnnotations: { method: 'GET', path: '/v2/book/:id/annotations', scope: 'book_basic_r', access: 'public', listKey: 'annotations', paging: page(20), summary: "A book's public annotations" },
  annotationGet: { method: 'GET', path: '/v2/book/annotation/:id', scope: 'book_basic_r', access: 'public', summary: 'An annotation' },
  seriesBooks: { method: 'GET', path: '/v2/book/series/:id/books', scope: 'book_basic_r', access: 'public', listKey: 'books', paging: page(20), summary: 'Books of a series',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'book', tags: (p, body) => [`series:${p.id}`, ...tagsOfList('books', 'book:')(p, body)] } },
  collectionCreate: { method: 'POST', path: '/v2/book/:id/collection', scope: 'book_basic_w', access: 'user', status: 201, summary: 'Collect a book', body: { dto: CollectionInput }, errorStatuses: [409] },
  collectionUpdate: { method: 'PUT', path: '/v2/book/:id/collection', scope: 'book_basic_w', access: 'user', status: 202, summary: 'Change a collection entry', body: { dto: CollectionInput } },
  collectionDelete: { method: 'DELETE', path: '/v2/book/:id/collection', scope: 'book_basic_w', access: 'user', status: 204, summary: 'Remove a collection entry' },
  annotationCreate: { method: 'POST', path: '/v2/book/:id/annotations', scope: 'book_basic_w', access: 'user', status: 201, summary: 'Write an annotation', body: { dto: AnnotationInput, pictures: 'annotation' } },
  annotationUpdate: { method: 'PUT', path: '/v2/book/annotation/:id', scope: 'book_basic_w', access: 'user', status: 202, summary: 'Change an annotation', body: { dto: AnnotationInput, pictures: 'annotation' } },
  annotationDelete: { method: 'DELETE', path: '/v2/book/annotation/:id', scope: 'book_basic_w', access: 'user', status: 204, summary: 'Delete an annotation' },
  reviewCreate: { method: 'POST', path: '/v2/book/reviews', scope: 'service_basic_common', access: 'user', status: 201, summary: 'Write a book review', body: { dto: ReviewCreateInput }, errorStatuses: [404] },
  reviewUpdate: { method: 'PUT', path: '/v2/book/review/:id', scope: 'service_basic_common', access: 'user', status: 202, summary: 'Change a book review', body: { dto: ReviewUpdateInput } },
  reviewDelete: { method: 'DELETE', path: '/v2/book/review/:id', scope: 'service_basic_common', access: 'user', summary: 'Delete a book review' },
  userTagsDeprecated: { method: 'GET', path: '/v2/book/user_tags/:id', scope: 'service_basic_common', access: 'public', listKey: 'tags', paging: page(20), deprecated: true, summary: "A user's tags (deprecated: use /v2/book/user/:name/tags)" },

  // ---- movies (docs/api/movie.md, "Endpoints"; tiers from docs/api/README.md, "Tiers and scopes") ----
  movieSubject: { method: 'GET', path: '/v2/movie/subject/:id', scope: movieRead, access: 'public', tiers: BAP, movieLimit: true, summary: 'A movie subject (fields by tier)',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:subject:${p.id}`] } },
  movieByImdb: { method: 'GET', path: '/v2/movie/imdb/:imdb', scope: movieRead, access: 'public', tiers: BAP, movieLimit: true, summary: 'A movie subject by its IMDb id (fields by tier)',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p, body) => [`movie:imdb:${p.imdb}`, `movie:subject:${(body as { id?: string } | undefined)?.id}`] } },
  movieCelebrity: { method: 'GET', path: '/v2/movie/celebrity/:id', scope: movieRead, access: 'public', tiers: BA, movieLimit: true, summary: 'A celebrity (fields by tier)',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:celebrity:${p.id}`] } },
  movieSubjectPhotos: { method: 'GET', path: '/v2/movie/subject/:id/photos', scope: movieRead, access: 'public', tiers: AP, movieLimit: true, listKey: 'photos', paging: page(10), summary: "A subject's photos",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:subject:${p.id}`] } },
  movieSubjectReviews: { method: 'GET', path: '/v2/movie/subject/:id/reviews', scope: movieRead, access: 'public', tiers: AP, movieLimit: true, listKey: 'reviews', paging: page(10), summary: "A subject's reviews",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:subject:${p.id}`] } },
  movieSubjectComments: { method: 'GET', path: '/v2/movie/subject/:id/comments', scope: movieRead, access: 'public', tiers: AP, movieLimit: true, listKey: 'comments', paging: page(10), summary: "A subject's short comments",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:subject:${p.id}`] } },
  movieCelebrityWorks: { method: 'GET', path: '/v2/movie/celebrity/:id/works', scope: movieRead, access: 'public', tiers: AP, movieLimit: true, listKey: 'works', paging: page(5), summary: "A celebrity's works with roles",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:celebrity:${p.id}`] } },
  movieCelebrityPhotos: { method: 'GET', path: '/v2/movie/celebrity/:id/photos', scope: movieRead, access: 'public', tiers: AP, movieLimit: true, listKey: 'photos', paging: page(10), summary: "A celebrity's photos",
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie', tags: (p) => [`movie:celebrity:${p.id}`] } },
  movieSearch: { method: 'GET', path: '/v2/movie/search', scope: movieRead, access: 'public', tiers: BAP, movieLimit: true, listKey: 'subjects', paging: page(20), summary: 'Search movies by q or tag',
    cache: { ttlSeconds: 60, area: 'movie' } },
  movieTop250: { method: 'GET', path: '/v2/movie/top250', scope: movieRead, access: 'public', tiers: BA, movieLimit: true, listKey: 'subjects', paging: page(10), summary: 'Top 250',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },
  movieUsBox: { method: 'GET', path: '/v2/movie/us_box', scope: movieRead, access: 'public', tiers: BA, movieLimit: true, listKey: 'subjects', summary: 'US box office',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },
  movieWeekly: { method: 'GET', path: '/v2/movie/weekly', scope: movieRead, access: 'public', tiers: A, movieLimit: true, listKey: 'subjects', summary: 'Weekly ranking',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },
  movieNew: { method: 'GET', path: '/v2/movie/new_movies', scope: movieRead, access: 'public', tiers: A, movieLimit: true, listKey: 'subjects', summary: 'New movies',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },
  movieInTheaters: { method: 'GET', path: '/v2/movie/in_theaters', scope: movieRead, access: 'public', tiers: BAP, movieLimit: true, listKey: 'subjects', paging: page(20), summary: 'In theatres in a city',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },
  movieComingSoon: { method: 'GET', path: '/v2/movie/coming_soon', scope: movieRead, access: 'public', tiers: BAP, movieLimit: true, listKey: 'subjects', paging: page(20), summary: 'Coming soon',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'movie' } },

  // ---- notes (docs/api/note.md, "Endpoints"; login always required) ----
  noteCreate: { method: 'POST', path: '/v2/notes', scope: 'community_basic_note', access: 'user', status: 201, summary: 'Write a note', body: { dto: NoteInput, pictures: 'note' } },
  noteGet: { method: 'GET', path: '/v2/note/:id', scope: 'community_basic_note', access: 'user', summary: 'A note' },
  noteUpdate: { method: 'PUT', path: '/v2/note/:id', scope: 'community_basic_note', access: 'user', status: 202, summary: 'Change a note', body: { dto: NoteInput, pictures: 'note' } },
  noteAddPictures: { method: 'POST', path: '/v2/note/:id', scope: 'community_basic_note', access: 'user', status: 202, summary: 'Add pictures to a note', body: { dto: NotePicturesInput, pictures: 'note' } },
  noteDelete: { method: 'DELETE', path: '/v2/note/:id', scope: 'community_basic_note', access: 'user', summary: 'Delete a note' },
  noteLike: { method: 'POST', path: '/v2/note/:id/like', scope: 'community_basic_note', access: 'user', status: 202, summary: 'Like a note' },
  noteUnlike: { method: 'DELETE', path: '/v2/note/:id/like', scope: 'community_basic_note', access: 'user', status: 202, summary: 'Unlike a note' },
  notesCreatedBy: { method: 'GET', path: '/v2/note/user_created/:id', scope: 'community_basic_note', access: 'user', listKey: 'notes', paging: page(20), summary: "A user's notes" },
  notesLikedBy: { method: 'GET', path: '/v2/note/user_liked/:id', scope: 'community_basic_note', access: 'user', listKey: 'notes', paging: page(20), summary: 'Notes a user liked' },
  noteComments: { method: 'GET', path: '/v2/note/:id/comments', scope: 'community_basic_note', access: 'user', listKey: 'comments', paging: page(20), summary: "A note's comments" },
  noteCommentCreate: { method: 'POST', path: '/v2/note/:id/comments', scope: 'community_basic_note', access: 'user', status: 201, summary: 'Comment on a note', body: { dto: NoteCommentInput } },
  noteCommentGet: { method: 'GET', path: '/v2/note/:id/comment/:cid', scope: 'community_basic_note', access: 'user', summary: 'A comment' },
  noteCommentDelete: { method: 'DELETE', path: '/v2/note/:id/comment/:cid', scope: 'community_basic_note', access: 'user', status: 204, summary: 'Delete a comment' },

  // ---- events and cities (docs/api/event.md, "Endpoints") ----
  eventGet: { method: 'GET', path: '/v2/event/:id', scope: 'event_basic_r', access: 'public', summary: 'An event' },
  eventParticipants: { method: 'GET', path: '/v2/event/:id/participants', scope: 'event_basic_r', access: 'public', listKey: 'users', paging: page(20), summary: "An event's participants" },
  eventWishers: { method: 'GET', path: '/v2/event/:id/wishers', scope: 'event_basic_r', access: 'public', listKey: 'users', paging: page(20), summary: 'Users interested in an event' },
  eventsCreatedBy: { method: 'GET', path: '/v2/event/user_created/:id', scope: 'event_basic_r', access: 'public', listKey: 'events', paging: page(20), summary: 'Events a user created' },
  eventsParticipatedBy: { method: 'GET', path: '/v2/event/user_participated/:id', scope: 'event_basic_r', access: 'public', listKey: 'events', paging: page(20), summary: 'Events a user takes part in' },
  eventsWishedBy: { method: 'GET', path: '/v2/event/user_wished/:id', scope: 'event_basic_r', access: 'public', listKey: 'events', paging: page(20), summary: 'Events a user is interested in' },
  eventSearch: { method: 'GET', path: '/v2/event/search', scope: 'event_basic_r', access: 'public', listKey: 'events', paging: page(20), summary: 'Search events', errorStatuses: [404] },
  eventList: { method: 'GET', path: '/v2/event/list', scope: 'event_basic_r', access: 'public', listKey: 'events', paging: page(20), summary: 'Events in a city', errorStatuses: [404] },
  locGet: { method: 'GET', path: '/v2/loc/:id', scope: 'event_basic_r', access: 'public', summary: 'A city',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'event', tags: (p) => [`loc:${p.id}`] } },
  locList: { method: 'GET', path: '/v2/loc/list', scope: 'event_basic_r', access: 'public', listKey: 'locs', paging: page(20), summary: 'Cities',
    cache: { ttlSeconds: CATALOGUE_TTL, area: 'event' } },
  eventJoin: { method: 'POST', path: '/v2/event/:id/participants', scope: 'event_basic_w', access: 'user', status: 202, summary: 'Take part in an event', body: { dto: ParticipateBody } },
  eventLeave: { method: 'DELETE', path: '/v2/event/:id/participants', scope: 'event_basic_w', access: 'user', status: 202, summary: 'Stop taking part' },
  eventWish: { method: 'POST', path: '/v2/event/:id/wishers', scope: 'event_basic_w', access: 'user', status: 202, summary: 'Mark interest' },
  eventUnwish: { method: 'DELETE', path: '/v2/event/:id/wishers', scope: 'event_basic_w', access: 'user', status: 202, summary: 'Remove interest' },

  // ---- users (docs/api/user.md) ----
  userMe: { method: 'GET', path: '/v2/user/~me', scope: 'service_basic_common', access: 'user', summary: 'The signed-in user' },
  userGet: { method: 'GET', path: '/v2/user/:name', scope: 'service_basic_common', access: 'public', summary: 'A user by uid or numeric id', errorStatuses: [404] },
  userSearch: { method: 'GET', path: '/v2/user', scope: 'service_basic_common', access: 'public', listKey: 'users', paging: page(20, 100), summary: 'Find users by name or uid' },
  accountDelete: { method: 'POST', path: '/v2/user/~me/delete', scope: 'service_basic_common', access: 'user', status: 202, summary: 'Delete the signed-in account (password confirmed; docs/api/account.md)', body: { dto: AccountDeleteInput } },
  accountExport: { method: 'GET', path: '/v2/user/~me/export', scope: 'service_basic_common', access: 'user', summary: 'Everything the signed-in user created, as a tar archive in the import format (docs/api/export.md)' },

  // ---- the public catalogue's change feed (docs/api/changes.md) ----
  changes: { method: 'GET', path: '/v2/changes', scope: 'catalogue_changes_r', access: 'token', listKey: 'changes', summary: 'Changes of the public catalogue, in order, from a cursor', errorStatuses: [410] },

  // ---- pictures (docs/api/README.md, "Pictures") ----
  pictureGet: { method: 'GET', path: '/v2/picture/:name', scope: null, access: 'public', unlimited: true, summary: 'A stored picture (private ones need a signed address)' },
} satisfies Record<string, EndpointDefinition>;

export type EndpointName = keyof typeof Endpoints;

export const ENDPOINT_LIST: Array<EndpointDefinition & { name: EndpointName }> = (Object.keys(Endpoints) as EndpointName[]).map(
  (name) => ({ ...(Endpoints[name] as EndpointDefinition), name }),
);
