/** The Simple User of the movie appendix; used for authors of reviews, annotations, notes and comments. */
export interface SimpleUser {
  id: string;
  uid: string;
  name: string;
  signature: string;
  alt: string;
  avatar: string;
}

/** The event user shape (docs/api/event.md, "Event user"). */
export interface EventUser {
  id: string;
  uid: string;
  name: string;
  alt: string;
  avatar: string;
}

/** A full user record as identity knows it (docs/api/oauth.md). */
export interface UserRecord extends SimpleUser {
  created: string;
}
