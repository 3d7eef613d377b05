import * as contracts from '@plaza/contracts';
import { echoMessage, importBatchMessage, pingMessage, reconcileMessage, ServiceNames } from '@plaza/contracts';
import { PICTURE_BUCKET as PLATFORM_PICTURE_BUCKET, RATE_LIMIT_BUCKET as PLATFORM_RATE_LIMIT_BUCKET } from '@plaza/platform';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  IMPORT_SERVICES, NATS_AUTH_FILES, NATS_PASSWORD_PATTERN, NATS_USERS, natsPasswordVariable, NatsPermissions, natsPermissions, NatsUser, newNatsPassword,
  PICTURE_BUCKET, RATE_LIMIT_BUCKET, renderNatsAuthorization,
} from './nats-auth';
import { workspaceRoot } from './paths';

/** NATS subject matching: `*` one token, `>` the rest (one or more tokens). */
function matches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

/** What nats-server decides: allowed when an allow pattern matches and no deny pattern does. */
function may(p: NatsPermissions, operation: 'publish' | 'subscribe', subject: string): boolean {
  const allow = (operation === 'publish' ? p.publish : p.subscribe).flatMap((g) => g.subjects);
  const deny = operation === 'publish' ? p.publishDeny.flatMap((g) => g.subjects) : [];
  return allow.some((a) => matches(a, subject)) && !deny.some((d) => matches(d, subject));
}

/** Every request/reply subject the contracts define (exported messages, and the per-service ones). */
function contractSubjects(): string[] {
  const subjects = new Set<string>();
  const isMessage = (v: unknown): v is { subject: string; request: unknown } =>
    typeof v === 'object' && v !== null && typeof (v as { subject?: unknown }).subject === 'string' && typeof (v as { request?: unknown }).request === 'function';
  for (const value of Object.values(contracts)) {
    if (isMessage(value)) subjects.add(value.subject);
    else if (typeof value === 'object' && value !== null) for (const inner of Object.values(value)) if (isMessage(inner)) subjects.add(inner.subject);
  }
  for (const service of ServiceNames) for (const make of [pingMessage, echoMessage, importBatchMessage, reconcileMessage]) subjects.add(make(service).subject);
  return [...subjects].sort();
}

const table = natsPermissions();
const owner = (subject: string) => subject.split('.')[0] as NatsUser;
const isImport = (subject: string) => /^[a-z]+\.v\d+\.import\./.test(subject);

describe('NATS permissions (docs/DECISIONS.md, "NATS")', () => {
  const subjects = contractSubjects();

  it('knows the contracts\' subjects (a sanity check of the enumeration)', () => {
    expect(subjects).toEqual(expect.arrayContaining(['identity.v1.token.issue', 'book.v1.book.get', 'event.v1.loc.resolve', 'book.v1.import.batch', 'note.v1.health.ping']));
    expect(subjects.length).toBeGreaterThan(50);
  });

  it('lets each service, and only it, serve its own subjects', () => {
    for (const subject of subjects) {
      const servers = NATS_USERS.filter((u) => may(table[u], 'subscribe', subject));
      expect({ subject, servers }).toEqual({ subject, servers: [owner(subject)] });
    }
  });

  it('lets the gateway request every subject but the imports, and serve none', () => {
    for (const subject of subjects) expect({ subject, gateway: may(table.gateway, 'publish', subject) }).toEqual({ subject, gateway: !isImport(subject) });
    expect(table.gateway.allowResponses).toBe(false);
    expect(table.gateway.subscribe.flatMap((g) => g.subjects).sort()).toEqual(['_INBOX_gateway.>', 'cache.v1.invalidated']);
  });

  it('lets the importer publish only the import subjects and the pings of the services it loads into', () => {
    const allowed = subjects.filter((s) => may(table.importer, 'publish', s));
    expect(allowed.sort()).toEqual(IMPORT_SERVICES.flatMap((s) => [importBatchMessage(s).subject, pingMessage(s).subject]).sort());
    expect(IMPORT_SERVICES).toEqual(['identity', 'book', 'movie', 'note', 'event']);
    expect(may(table.importer, 'publish', 'identity.v1.token.issue')).toBe(false);
    expect(may(table.importer, 'subscribe', 'identity.v1.>')).toBe(false);
    expect(may(table.importer, 'publish', '$KV.revocations.jti.x')).toBe(false);
  });

  it('lets the reconcile job publish only the reconcile subjects', () => {
    expect(subjects.filter((s) => may(table.reconcile, 'publish', s)).sort()).toEqual(['book.v1.reconcile.run', 'event.v1.reconcile.run', 'note.v1.reconcile.run']);
    expect(table.reconcile.subscribe.flatMap((g) => g.subjects)).toEqual(['_INBOX_reconcile.>']);
  });

  it('lets a service request only the other areas\' subjects it uses, and no import', () => {
    const requests = (user: NatsUser) => subjects.filter((s) => owner(s) !== user && may(table[user], 'publish', s)).sort();
    expect(requests('identity')).toEqual([]);
    expect(requests('book')).toEqual(['identity.v1.users.resolve']);
    expect(requests('movie')).toEqual(['event.v1.loc.resolve', 'identity.v1.users.resolve']);
    expect(requests('note')).toEqual(['identity.v1.users.friends', 'identity.v1.users.resolve']);
    expect(requests('event')).toEqual(['identity.v1.users.resolve']);
    for (const service of ServiceNames) {
      expect(table[service].allowResponses).toBe(true);
      // replies go out as responses only, never as publishes to an inbox of its choosing
      expect(may(table[service], 'publish', '_INBOX.abc.1')).toBe(false);
      expect(may(table[service], 'publish', 'cache.v1.invalidated')).toBe(true);
    }
  });

  it('lets identity alone write the revocation bucket, and the gateways alone the rate limits', () => {
    const writers = (subject: string) => NATS_USERS.filter((u) => may(table[u], 'publish', subject));
    expect(writers('$KV.revocations.jti.abc')).toEqual(['identity']);
    expect(writers('$JS.API.STREAM.CREATE.KV_revocations')).toEqual(['identity']);
    expect(writers('$KV.ratelimits.anon.x.1')).toEqual(['gateway']);
    expect(writers('$JS.API.STREAM.INFO.KV_revocations')).toEqual(['gateway', 'identity']);
    expect(writers('$JS.API.CONSUMER.CREATE.KV_revocations.name.$KV.revocations.>')).toEqual(['gateway']);
    // nobody deletes or reconfigures a bucket, nor purges the revocations
    for (const api of ['STREAM.DELETE', 'STREAM.UPDATE', 'STREAM.PURGE']) expect(writers(`$JS.API.${api}.KV_revocations`)).toEqual([]);
  });

  it('lets the gateway (and the importer, an archive\'s) store pictures, book and note change their metadata and delete them, nobody else touch them', () => {
    const users = (subject: string) => NATS_USERS.filter((u) => may(table[u], 'publish', subject));
    // the importer stores an export archive's pictures (docs/api/export.md)
    expect(users('$O.pictures.C.chunkid')).toEqual(['gateway', 'importer']);
    expect(users('$O.pictures.M.bmFtZQ==')).toEqual(['gateway', 'book', 'note', 'importer']);
    // it never purges: a picture it stored is deleted by the service that owns it
    expect(users('$JS.API.STREAM.PURGE.OBJ_pictures')).toEqual(['gateway', 'book', 'note']);
    expect(users('$JS.API.STREAM.MSG.GET.OBJ_pictures')).toEqual(['gateway', 'book', 'note', 'importer']);
  });

  it('names the buckets the apps open', () => {
    expect(RATE_LIMIT_BUCKET).toBe(PLATFORM_RATE_LIMIT_BUCKET);
    expect(PICTURE_BUCKET).toBe(PLATFORM_PICTURE_BUCKET);
  });
});

describe('the rendered server configuration', () => {
  it('has a user per process, its password from its own variable, and its permissions', () => {
    const text = renderNatsAuthorization();
    for (const user of NATS_USERS) expect(text).toContain(`      user: ${user}\n      password: $${natsPasswordVariable(user)}\n      permissions: {`);
    expect(natsPasswordVariable('importer')).toBe('IMPORTER_NATS_PASSWORD');
    expect(text.match(/allow_responses: true/g)).toHaveLength(ServiceNames.length);
  });

  it('lists a subject once per list', () => {
    const text = renderNatsAuthorization();
    const gatewayBlock = text.slice(text.indexOf('user: gateway'), text.indexOf('user: identity'));
    expect(gatewayBlock.match(/"\$JS\.API\.INFO"/g)).toHaveLength(1);
  });

  it.each(NATS_AUTH_FILES)('%s is the rendered table (run `node tools/stack/dist/cli.js nats-auth` after changing it)', (file) => {
    expect(readFileSync(join(workspaceRoot(), file), 'utf8')).toBe(renderNatsAuthorization());
  });
});

describe('newNatsPassword', () => {
  it('makes passwords nats-server reads intact from its environment', () => {
    const passwords = Array.from({ length: 50 }, newNatsPassword);
    for (const p of passwords) expect(p).toMatch(NATS_PASSWORD_PATTERN);
    expect(new Set(passwords).size).toBe(50);
  });
});
