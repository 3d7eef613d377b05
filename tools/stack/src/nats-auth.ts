import {
  CACHE_INVALIDATED, CHANGE_STREAM, natsInboxPrefix, ChangeKindOwners, changeSubject, ErasedServices, erasureMessage, IdentityMessages, ImportKindOwners, importBatchMessage,
  pingMessage, ReconciledServices, reconcileMessage, RESOLVE_LOC, REVOCATION_BUCKET, ServiceName, ServiceNames,
} from '@plaza/contracts';
import { randomBytes } from 'node:crypto';

/**
 * Who may do what on NATS (docs/DECISIONS.md, "NATS"): one NATS user per process role, each with its own password
 * and the subjects it needs, nothing more. nats-server enforces it (the `authorization` block of
 * deploy/docker/nats-auth.conf and deploy/k8s/base/nats/nats-auth.conf, both rendered from this
 * table; `npm start`, the tests and compose run the first, Kubernetes the second):
 *
 * - the gateway may request the API subjects of every area, never an import subject, and serves
 *   nothing (it subscribes to its inbox and to `cache.v1.invalidated` only);
 * - each service subscribes to its own subjects only (`<service>.v1.>`), so identity alone can
 *   answer `identity.v1.token.issue`; it replies through NATS's `allow_responses` (one reply to
 *   each request it received, never a publish to an inbox of its choosing), and requests only
 *   the few other services' subjects it uses;
 * - the importer may publish only the import subjects (and ask the services it loads into whether
 *   they are up); `npm run reconcile` (the reconcile CronJob) only the reconcile subjects;
 * - identity alone writes the revocation bucket; the gateways read and watch it; the gateways
 *   read and write the rate-limit bucket; the gateway stores pictures, book and note read them and
 *   change or delete their metadata.
 */

export const NATS_USERS = ['gateway', ...ServiceNames, 'importer', 'reconcile'] as const;
export type NatsUser = (typeof NATS_USERS)[number];

/**
 * Where a user's replies and JetStream deliveries arrive: its own inbox prefix (the apps connect
 * with `inboxPrefix` set to it), so no user can read the replies meant for another. Nobody may
 * publish to an inbox: services answer through allow_responses.
 */
export const inboxesOf = (user: NatsUser) => `${natsInboxPrefix(user)}.>`;

/** JetStream names of the buckets (libs/platform/src/nats/buckets.ts, libs/contracts; nats-auth.spec.ts checks they agree). */
export const RATE_LIMIT_BUCKET = 'ratelimits';
export const PICTURE_BUCKET = 'pictures';

/** Subjects granted together, with the reason (a comment in the rendered file). */
export interface Grant {
  why: string;
  subjects: string[];
}

export interface NatsPermissions {
  publish: Grant[];
  /** Subjects refused even where an allowed wildcard would match them. */
  publishDeny: Grant[];
  subscribe: Grant[];
  /** May publish one reply to each request it received (NATS's `allow_responses`): the services. */
  allowResponses: boolean;
}

const api = (suffix: string) => `$JS.API.${suffix}`;

/**
 * Opening a bucket (`views.kv`, `views.os`): nats.js asks for the account's JetStream info first
 * (`$JS.API.INFO`, read-only: usage and limits), then for the stream's, and creates it when the
 * user is allowed to and it does not exist yet.
 */
function openBucket(stream: string, create: boolean): string[] {
  return [api('INFO'), api(`STREAM.INFO.${stream}`), ...(create ? [api(`STREAM.CREATE.${stream}`)] : [])];
}

/**
 * An ordered push consumer (a KV watch, an object's chunks, the object list): created under the
 * old API form (`CONSUMER.CREATE.<stream>`, used again when nats.js recreates it after a gap)
 * and the new one (`CONSUMER.CREATE.<stream>.<name>.<filter>`: the filter is in the subject, so
 * this cannot be narrowed by key), and the flow-control answers it publishes
 * (`$JS.FC.<stream>.>`, also to the subject a stalled-consumer heartbeat names, which is no
 * reply, so allow_responses would not cover it).
 */
function orderedConsumer(stream: string): string[] {
  return [api(`CONSUMER.CREATE.${stream}`), api(`CONSUMER.CREATE.${stream}.>`), `$JS.FC.${stream}.>`];
}

/** A KV read by key: a direct get (the key is in the subject) or, on a stream without direct gets, a message get. */
function kvGet(bucket: string): string[] {
  const stream = `KV_${bucket}`;
  return [api(`DIRECT.GET.${stream}`), api(`DIRECT.GET.${stream}.>`), api(`STREAM.MSG.GET.${stream}`)];
}

const OBJ = `OBJ_${PICTURE_BUCKET}`;

/**
 * What every user that opens the picture store may do: read objects and their metadata, list
 * them. Reading an object's chunks subscribes without naming the stream, so nats.js first looks
 * it up by subject (`$JS.API.STREAM.NAMES`: the subject filter is in the payload, so this one
 * cannot be narrowed; it lists stream names only, no data).
 */
function pictureReads(create: boolean): string[] {
  return [...openBucket(OBJ, create), api(`STREAM.MSG.GET.${OBJ}`), api('STREAM.NAMES'), ...orderedConsumer(OBJ)];
}

/** The subjects `<service>.v1.>` a service serves. */
const own = (service: ServiceName) => `${service}.v1.>`;

/**
 * The change feed (docs/api/changes.md): the services that own catalogue kinds publish their
 * changes to the stream's subjects (each only its own kinds) and create the stream if it is not
 * there yet; the gateways read it by sequence with batched direct gets (the stream allows them).
 */
function changePublisher(name: ServiceName): Grant {
  const kinds = (Object.keys(ChangeKindOwners) as Array<keyof typeof ChangeKindOwners>).filter((k) => ChangeKindOwners[k] === name);
  return {
    why: `the change feed "${CHANGE_STREAM}": its ${kinds.join(', ')} changes published (acknowledged by JetStream), the stream created if missing`,
    subjects: [...kinds.map(changeSubject), ...openBucket(CHANGE_STREAM, true)],
  };
}
const changeReads: Grant = {
  why: `the change feed "${CHANGE_STREAM}": its state and batched direct gets by sequence, never written`,
  subjects: [api(`STREAM.INFO.${CHANGE_STREAM}`), api(`DIRECT.GET.${CHANGE_STREAM}`)],
};

const inbox = (user: NatsUser): Grant => ({ why: 'replies to its requests and JetStream deliveries, in its own inbox', subjects: [inboxesOf(user)] });
const invalidate: Grant = { why: 'response-cache invalidation after writes and imports (every gateway listens)', subjects: [CACHE_INVALIDATED.subject] };
const resolveUsers: Grant = { why: 'users belong to identity (UsersDirectory)', subjects: [IdentityMessages.resolveUsers.subject] };

/** The services that own an import kind: the importer's destinations. */
export const IMPORT_SERVICES: ServiceName[] = ServiceNames.filter((s) => Object.values(ImportKindOwners).includes(s as never));

function service(name: ServiceName, publish: Grant[]): NatsPermissions {
  return {
    publish: [invalidate, ...publish],
    publishDeny: [],
    subscribe: [{ why: 'the subjects it serves (queue group), and nobody else does', subjects: [own(name)] }, inbox(name)],
    allowResponses: true,
  };
}

/** The permissions of every user, the source of the rendered server configuration. */
export function natsPermissions(): Record<NatsUser, NatsPermissions> {
  const pictureWrites: Grant = {
    why: 'picture metadata (visibility, deletion) and purging a deleted picture\'s chunks',
    subjects: [`$O.${PICTURE_BUCKET}.M.>`, api(`STREAM.PURGE.${OBJ}`)],
  };
  // book and note open the store at start-up to sweep staged pictures, possibly before any gateway
  const pictures: Grant = { why: `the picture object store "${PICTURE_BUCKET}" (opened, created if missing, read and listed)`, subjects: pictureReads(true) };
  return {
    gateway: {
      publish: [
        { why: 'the API: requests to every area (import subjects denied below)', subjects: ServiceNames.map(own) },
        {
          why: `the revocation bucket "${REVOCATION_BUCKET}": opened and watched, never written (identity creates it; the gateway retries until it exists)`,
          subjects: [...openBucket(`KV_${REVOCATION_BUCKET}`, false), ...orderedConsumer(`KV_${REVOCATION_BUCKET}`)],
        },
        {
          why: `the rate-limit bucket "${RATE_LIMIT_BUCKET}": created, read and written (compare-and-set) by the gateways only`,
          subjects: [...openBucket(`KV_${RATE_LIMIT_BUCKET}`, true), ...kvGet(RATE_LIMIT_BUCKET), `$KV.${RATE_LIMIT_BUCKET}.>`],
        },
        { ...pictures, why: `${pictures.why}; uploads store chunks and metadata` },
        { why: 'stored pictures: chunks, metadata, and purges when an upload is replaced or dropped', subjects: [`$O.${PICTURE_BUCKET}.>`, api(`STREAM.PURGE.${OBJ}`)] },
        changeReads,
      ],
      // `<service>.v1.import.batch` (importBatchMessage), and whatever else an area adds under import
      publishDeny: [
        { why: 'imports are the importer\'s alone', subjects: ServiceNames.map((s) => `${s}.v1.import.>`) },
        { why: 'erasing a deleted account\'s records is identity\'s alone (after the password check)', subjects: ErasedServices.map((s) => erasureMessage(s).subject) },
      ],
      subscribe: [inbox('gateway'), { why: 'response-cache invalidations', subjects: [CACHE_INVALIDATED.subject] }],
      allowResponses: false,
    },
    identity: service('identity', [
      {
        why: `the revocation bucket "${REVOCATION_BUCKET}": created and written by identity alone`,
        subjects: [...openBucket(`KV_${REVOCATION_BUCKET}`, true), `$KV.${REVOCATION_BUCKET}.>`],
      },
      { why: 'a deleted account\'s records erased by the areas that keep them (docs/api/account.md)', subjects: ErasedServices.map((s) => erasureMessage(s).subject) },
    ]),
    book: service('book', [resolveUsers, pictures, pictureWrites, changePublisher('book')]),
    movie: service('movie', [resolveUsers, { why: 'cities belong to event (in_theaters?city=)', subjects: [RESOLVE_LOC.subject] }, changePublisher('movie')]),
    note: service('note', [{ ...resolveUsers, subjects: [IdentityMessages.resolveUsers.subject, IdentityMessages.friends.subject] }, pictures, pictureWrites]),
    event: service('event', [resolveUsers, changePublisher('event')]),
    importer: {
      publish: [
        { why: 'imports, each kind to the service that owns it', subjects: IMPORT_SERVICES.map((s) => importBatchMessage(s).subject) },
        { why: 'whether those services answer, before it starts', subjects: IMPORT_SERVICES.map((s) => pingMessage(s).subject) },
        {
          why: `an export archive's pictures stored before the records that name them (docs/api/export.md): the picture object store "${PICTURE_BUCKET}" opened, chunks and metadata written`,
          subjects: [...pictureReads(true), `$O.${PICTURE_BUCKET}.>`],
        },
      ],
      publishDeny: [],
      subscribe: [inbox('importer')],
      allowResponses: false,
    },
    reconcile: {
      publish: [{ why: 'recounting the derived counters of the services that keep them (apps/reconcile)', subjects: ReconciledServices.map((s) => reconcileMessage(s).subject) }],
      publishDeny: [],
      subscribe: [inbox('reconcile')],
      allowResponses: false,
    },
  };
}

/** The environment variable the server configuration reads a user's password from. */
export const natsPasswordVariable = (user: NatsUser) => `${user.toUpperCase()}_NATS_PASSWORD`;

/**
 * A new password: letters and digits, starting with a letter. nats-server reads a `$VARIABLE`'s
 * value as a configuration value, so one starting with a digit would be a number (and refused),
 * `true`/`yes`/`on` a boolean, and `#` or `;` would end it.
 */
export function newNatsPassword(): string {
  return `n${randomBytes(24).toString('hex')}`;
}

/** What a password must look like to reach nats-server intact through its configuration's `$VARIABLE`. */
export const NATS_PASSWORD_PATTERN = /^[A-Za-z][A-Za-z0-9]{15,}$/;

/** A list of subjects with a comment per grant; a subject already listed is not repeated. */
function list(grants: Grant[], indent: string): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const grant of grants) {
    const subjects = grant.subjects.filter((s) => !seen.has(s));
    if (subjects.length === 0) continue;
    lines.push(`${indent}# ${grant.why}`);
    for (const subject of subjects) {
      seen.add(subject);
      lines.push(`${indent}"${subject}"`);
    }
  }
  return lines;
}

export const NATS_AUTH_HEADER = [
  '# NATS users and their permissions (docs/DECISIONS.md, "NATS"): one user per process, each with its own password.',
  '# Generated from tools/stack/src/nats-auth.ts: edit the table there and run',
  '#   npm run build && node tools/stack/dist/cli.js nats-auth',
  '# (the unit tests and deploy-check fail while this file differs from the table).',
  '# Passwords come from the environment of nats-server, one variable per user (<USER>_NATS_PASSWORD):',
  '# letters and digits, starting with a letter (nats-server reads a variable\'s value as a config value).',
];

/** The `authorization` block of the server configuration, passwords read from `<USER>_NATS_PASSWORD`. */
export function renderNatsAuthorization(permissions = natsPermissions()): string {
  const lines = [...NATS_AUTH_HEADER, 'authorization {', '  users = ['];
  for (const user of NATS_USERS) {
    const p = permissions[user];
    lines.push('    {', `      user: ${user}`, `      password: $${natsPasswordVariable(user)}`, '      permissions: {', '        publish: {', '          allow: [');
    lines.push(...list(p.publish, '            '), '          ]');
    if (p.publishDeny.length > 0) lines.push('          deny: [', ...list(p.publishDeny, '            '), '          ]');
    lines.push('        }', '        subscribe: {', '          allow: [', ...list(p.subscribe, '            '), '          ]', '        }');
    if (p.allowResponses) lines.push('        # one reply to each request it received, within two minutes (the server\'s default)', '        allow_responses: true');
    lines.push('      }', '    }');
  }
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

/** The rendered files: compose and the local stack read the first, Kubernetes the second (kustomize reads only below its folder). */
export const NATS_AUTH_FILES = ['deploy/docker/nats-auth.conf', 'deploy/k8s/base/nats/nats-auth.conf'];
