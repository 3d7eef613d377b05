/**
 * Every error code a client can receive. Codes and messages are public interface
 * (docs/api/README.md, "Errors", and docs/api/oauth.md, "Errors"): change them only together with docs/ERRORS.md,
 * which a unit test compares against this table.
 */
export interface ErrorDefinition {
  readonly code: number;
  readonly status: number;
  readonly msg: string;
}

const define = <T extends Record<string, ErrorDefinition>>(table: T): T => table;

export const Errors = define({
  // Authorization (docs/api/oauth.md)
  invalid_request_scheme: { code: 100, status: 400, msg: 'invalid_request_scheme' },
  invalid_access_token: { code: 103, status: 401, msg: 'invalid_access_token' },
  invalid_apikey: { code: 104, status: 400, msg: 'invalid_apikey' },
  apikey_is_blocked: { code: 105, status: 400, msg: 'apikey_is_blocked' },
  access_token_has_expired: { code: 106, status: 401, msg: 'access_token_has_expired' },
  invalid_credencial2: { code: 109, status: 403, msg: 'invalid_credencial2' },
  rate_limit_exceeded1: { code: 111, status: 429, msg: 'rate_limit_exceeded1' },
  rate_limit_exceeded2: { code: 112, status: 429, msg: 'rate_limit_exceeded2' },
  required_parameter_is_missing: { code: 113, status: 400, msg: 'required_parameter_is_missing' },
  unsupported_grant_type: { code: 114, status: 400, msg: 'unsupported_grant_type' },
  unsupported_response_type: { code: 115, status: 400, msg: 'unsupported_response_type' },
  client_secret_mismatch: { code: 116, status: 400, msg: 'client_secret_mismatch' },
  redirect_uri_mismatch: { code: 117, status: 400, msg: 'redirect_uri_mismatch' },
  invalid_authorization_code: { code: 118, status: 400, msg: 'invalid_authorization_code' },
  invalid_refresh_token: { code: 119, status: 400, msg: 'invalid_refresh_token' },
  username_password_mismatch: { code: 120, status: 400, msg: 'username_password_mismatch' },
  invalid_request_scope: { code: 125, status: 400, msg: 'invalid_request_scope' },
  user_locked: { code: 128, status: 400, msg: 'user_locked' },

  // General (docs/ERRORS.md, "General")
  unknow_v2_error: { code: 999, status: 400, msg: 'unknow_v2_error' },
  need_permission: { code: 1000, status: 403, msg: 'need_permission' },
  uri_not_found: { code: 1001, status: 404, msg: 'uri_not_found' },
  missing_args: { code: 1002, status: 400, msg: 'missing_args' },
  image_too_large: { code: 1003, status: 400, msg: 'image_too_large' },
  has_ban_word: { code: 1004, status: 400, msg: 'has_ban_word' },
  input_too_short: { code: 1005, status: 400, msg: 'input_too_short' },
  target_not_found: { code: 1006, status: 400, msg: 'target_not_found' },
  need_captcha: { code: 1007, status: 403, msg: 'need_captcha' },
  image_unknow: { code: 1008, status: 400, msg: 'image_unknow' },
  image_wrong_format: { code: 1009, status: 400, msg: 'image_wrong_format' },
  image_wrong_ck: { code: 1010, status: 403, msg: 'image_wrong_ck' },
  image_ck_expired: { code: 1011, status: 403, msg: 'image_ck_expired' },
  title_missing: { code: 1012, status: 400, msg: 'title_missing' },
  desc_missing: { code: 1013, status: 400, msg: 'desc_missing' },
  wrong_method: { code: 1014, status: 400, msg: 'wrong_method' },
  invalid_callback: { code: 1015, status: 400, msg: 'invalid_callback' },
  invalid_args: { code: 1016, status: 400, msg: 'invalid_args' },

  // Book area (docs/ERRORS.md, "Books")
  book_not_found: { code: 6000, status: 404, msg: 'book_not_found' },
  unauthorized_error: { code: 6002, status: 403, msg: 'unauthorized_error' },
  review_content_short: { code: 6004, status: 400, msg: 'review_content_short(should more than 150)' },
  review_not_found: { code: 6006, status: 404, msg: 'review_not_found' },
  not_book_request: { code: 6007, status: 403, msg: 'not_book_request' },
  people_not_found: { code: 6008, status: 404, msg: 'people_not_found' },
  function_error: { code: 6009, status: 400, msg: 'function_error' },
  comment_too_long: { code: 6010, status: 400, msg: 'comment_too_long(should less than 350)' },
  collection_exist: { code: 6011, status: 409, msg: 'collection_exist(try PUT if you want to update)' },
  invalid_page_number: { code: 6012, status: 400, msg: 'invalid_page_number(should be digit less than 1000000)' },
  chapter_too_long: { code: 6013, status: 400, msg: 'chapter_too_long(should less than 100)' },

  // Platform errors the interface does not name (docs/ERRORS.md, "Platform errors the spec does not name")
  internal_error: { code: 1100, status: 500, msg: 'internal_error' },
  service_unavailable: { code: 1101, status: 503, msg: 'service_unavailable' },
  service_timeout: { code: 1102, status: 504, msg: 'service_timeout' },
  request_too_large: { code: 1103, status: 413, msg: 'request_too_large' },
  unsupported_media_type: { code: 1104, status: 415, msg: 'unsupported_media_type' },

  // Change feed (docs/api/changes.md)
  changes_cursor_expired: { code: 1110, status: 410, msg: 'cursor_expired(resync the catalogue)' },
});

export type ErrorName = keyof typeof Errors;

const byCode = new Map<number, ErrorName>(
  (Object.keys(Errors) as ErrorName[]).map((name) => [Errors[name].code, name]),
);

export function errorNameForCode(code: number): ErrorName | undefined {
  return byCode.get(code);
}
