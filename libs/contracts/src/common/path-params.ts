/**
 * Path parameters as the services check them again. The gateway's router matches `:id` as digits
 * and `:name` as `[A-Za-z0-9._-]`, each up to 200 characters; any id it lets through is a
 * well-formed id, so a long one is not found (404), never a malformed argument (400).
 */
export const MAX_PATH_PARAM_LENGTH = 200;
export const PATH_ID = new RegExp(`^[0-9]{1,${MAX_PATH_PARAM_LENGTH}}$`);
export const PATH_NAME = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_PATH_PARAM_LENGTH}}$`);
