/**
 * The path wildcards of docs/api/README.md ("Addresses"), shared by the gateway's router and the services that check path
 * parameters again: `:id` digits only, `:name` digits, letters and `-_.`, each up to 200
 * characters. Any id the router lets through is well-formed, so a long one that no record has is
 * not found (404), never a malformed argument (400).
 */
// ASCII classes, not `\d`: the OpenAPI document publishes these, and other regex engines (Python's,
// in the fuzzer) read `\d` as any Unicode digit
export const PATH_ID_CHARACTERS = '[0-9]';
export const PATH_NAME_CHARACTERS = '[A-Za-z0-9._-]';
export const MAX_PATH_PARAM_LENGTH = 200;
export const PATH_ID = new RegExp(`^${PATH_ID_CHARACTERS}{1,${MAX_PATH_PARAM_LENGTH}}$`);
export const PATH_NAME = new RegExp(`^${PATH_NAME_CHARACTERS}{1,${MAX_PATH_PARAM_LENGTH}}$`);
