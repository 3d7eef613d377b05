import { Apps, PASSWORD, TestApp, TestUser } from './fixtures';
import { post } from './http';

const cache = new Map<string, Promise<string>>();

export interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
  user_id?: string;
  user_name?: string;
}

/** A password-grant access token for a test user (cached per user, app and scope). */
export function tokenFor(user: TestUser, app: TestApp = Apps.premium, scope?: string): Promise<string> {
  const key = `${user.uid}|${app.clientId}|${scope ?? ''}`;
  let token = cache.get(key);
  if (!token) {
    token = passwordGrant(user, app, scope).then((body) => body.access_token);
    cache.set(key, token);
    token.catch(() => cache.delete(key));
  }
  return token;
}

export async function passwordGrant(user: TestUser, app: TestApp = Apps.premium, scope?: string, password = PASSWORD): Promise<TokenBody> {
  const response = await post<TokenBody>('/auth2/token', {
    form: { grant_type: 'password', client_id: app.clientId, client_secret: app.secret, username: user.uid, password, scope },
  });
  if (response.status !== 200) throw new Error(`password grant for ${user.uid} failed: ${response.status} ${response.text}`);
  return response.body;
}

/** A client-credentials token: an app without a user (public reads only). */
export async function clientToken(app: TestApp = Apps.premium, scope?: string): Promise<string> {
  const response = await post<TokenBody>('/auth2/token', {
    form: { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.secret, scope },
  });
  if (response.status !== 200) throw new Error(`client credentials for ${app.clientId} failed: ${response.text}`);
  return response.body.access_token;
}
