import { MovieImages } from '@plaza/contracts';

/**
 * Addresses the service fills in when an import record leaves them out (docs/api/movie.md):
 * pages (`alt`, `mobile_url`) under PUBLIC_WEB_URL, pictures under PUBLIC_WEB_URL/movie/img.
 */
export class MovieLinks {
  private readonly web: string;

  constructor(publicWebUrl: string) {
    this.web = publicWebUrl.replace(/\/+$/, '');
  }

  subjectAlt = (id: string) => `${this.web}/movie/subject/${id}/`;
  subjectMobile = (id: string) => `${this.web}/m/movie/subject/${id}/`;
  subjectImages = (id: string): MovieImages => this.sizes('subject', id);
  subjectAlbum = (id: string) => `${this.web}/movie/subject/${id}/photos/`;

  celebrityAlt = (id: string) => `${this.web}/movie/celebrity/${id}/`;
  celebrityMobile = (id: string) => `${this.web}/m/movie/celebrity/${id}/`;
  celebrityAvatars = (id: string): MovieImages => this.sizes('celebrity', id);
  celebrityAlbum = (id: string) => `${this.web}/movie/celebrity/${id}/photos/`;

  photoAlt = (id: string) => `${this.web}/movie/photos/photo/${id}/`;
  photoPicture = (size: 'icon' | 'image' | 'thumb' | 'cover', id: string) => `${this.web}/movie/img/photo/${size}/${id}.jpg`;

  reviewAlt = (id: string) => `${this.web}/movie/review/${id}/`;

  private sizes(kind: string, id: string): MovieImages {
    const at = (size: string) => `${this.web}/movie/img/${kind}/${size}/${id}.jpg`;
    return { small: at('s'), large: at('l'), medium: at('m') };
  }
}
