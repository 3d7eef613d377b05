import { NATS_USERS, renderNatsAuthorization } from '@plaza/stack';
import { APPS, ComposeModel } from './checks';
import type { Container, K8sObject } from './manifests';
import {
  checkComposeNatsCredentials, checkK8sNatsCredentials, checkNatsAuthRendered, checkNatsConfigIncludesUsers, checkNatsUsers, natsUserBlocks,
} from './nats-users';

const rendered = renderNatsAuthorization();

describe('checkNatsAuthRendered', () => {
  it('passes the rendered table and names a file that differs, with the command that renders it', () => {
    expect(checkNatsAuthRendered({ 'a.conf': rendered }, rendered)).toEqual([]);
    expect(checkNatsAuthRendered({ 'a.conf': rendered.replace('"book.v1.>"', '"book.>"') }, rendered)).toEqual([
      'a.conf differs from the table in tools/stack/src/nats-auth.ts: run `npm run build && node tools/stack/dist/cli.js nats-auth`',
    ]);
  });
});

describe('checkNatsConfigIncludesUsers', () => {
  it('asks every server configuration to include the users', () => {
    expect(checkNatsConfigIncludesUsers({ ok: 'max_payload: 8MB\ninclude ./nats-auth.conf\n', ok2: 'include "nats-auth.conf"' })).toEqual([]);
    expect(checkNatsConfigIncludesUsers({ bad: 'max_payload: 8MB\n# include ./nats-auth.conf\n' })).toEqual(['bad: must include ./nats-auth.conf (the NATS users and their permissions)']);
  });
});

describe('checkNatsUsers', () => {
  it('passes the rendered table: a user per process, each with its password variable and permissions', () => {
    expect(natsUserBlocks(rendered).map((b) => b.user)).toEqual([...NATS_USERS]);
    expect(checkNatsUsers('auth.conf', rendered)).toEqual([]);
  });

  it('reports a missing user, a user without permissions, a password not from its variable, and strangers', () => {
    const withoutImporter = rendered.slice(0, rendered.indexOf('    {\n      user: importer')) + rendered.slice(rendered.indexOf('    {\n      user: reconcile'));
    expect(checkNatsUsers('f', withoutImporter)).toEqual(['f: no NATS user importer']);
    const open = `authorization {\n  users = [\n${NATS_USERS.map((u) => `    { user: ${u}, password: $${u.toUpperCase()}_NATS_PASSWORD }`).join('\n')}\n  ]\n}\n`;
    expect(checkNatsUsers('f', open)).toEqual(NATS_USERS.map((u) => `f: user ${u} has no permissions (it could use every subject)`).flatMap((p) => [p, p.replace(/has no permissions.*/, 'has no publish allow list'), p.replace(/has no permissions.*/, 'has no subscribe allow list')]));
    expect(checkNatsUsers('f', rendered.replace('password: $BOOK_NATS_PASSWORD', 'password: "s3cret"'))).toEqual(['f: user book must take its password from $BOOK_NATS_PASSWORD']);
    expect(checkNatsUsers('f', rendered.replace('users = [', 'users = [\n    { user: admin, password: x }'))).toEqual(['f: unknown NATS user admin']);
    expect(checkNatsUsers('f', `no_auth_user: gateway\n${rendered}`)).toEqual(['f: no_auth_user lets clients without credentials in']);
    expect(checkNatsUsers('f', 'max_payload: 8MB\n', ['gateway'])).toEqual(['f: no authorization block', 'f: no NATS user gateway']);
  });
});

const labels = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'plaza' });

function workload(kind: string, name: string, env: Container['env'], extra: Partial<NonNullable<K8sObject['spec']>> = {}, podLabels: Record<string, string> = {}): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, labels: labels(name) },
    spec: { template: { metadata: { labels: { ...labels(name), ...podLabels } }, spec: { containers: [{ name, env }] } }, ...extra },
  };
}

const credentials = (user: string): Container['env'] => [
  { name: 'NATS_USER', value: user },
  { name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: { name: `${user}-nats`, key: 'password' } } },
];

function natsStatefulSet(users: readonly string[] = NATS_USERS): K8sObject {
  const env = users.map((u) => ({ name: `${u.toUpperCase()}_NATS_PASSWORD`, valueFrom: { secretKeyRef: { name: `${u}-nats`, key: 'password' } } }));
  const set = workload('StatefulSet', 'nats', env);
  set.spec!.template!.spec.volumes = [{ name: 'config', configMap: { name: 'nats-config-h4sh' } }];
  return set;
}

const natsConfig = (auth = rendered, conf = 'include ./nats-auth.conf\n'): K8sObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'nats-config-h4sh', labels: labels('nats') },
  data: { 'nats.conf': conf, 'nats-auth.conf': auth },
});

describe('checkK8sNatsCredentials', () => {
  const good = () => [...APPS.map((a) => workload('Deployment', a, credentials(a))), workload('Job', 'seed', credentials('importer'), {}, { 'plaza/nats-client': 'true' }), natsStatefulSet(), natsConfig()];

  it('passes every app and the seed job with their own user, and NATS with every password and the users', () => {
    expect(checkK8sNatsCredentials(good(), rendered)).toEqual([]);
  });

  it('reports an app without credentials, another user\'s secret, a missing server password, and users that are not the table', () => {
    const objects = good();
    objects[1] = workload('Deployment', 'identity', [{ name: 'NATS_URL', value: 'nats://nats:4222' }]);
    objects[2] = workload('Deployment', 'book', [{ name: 'NATS_USER', value: 'book' }, { name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: { name: 'identity-nats', key: 'password' } } }]);
    objects[APPS.length] = workload('Job', 'seed', credentials('gateway'), {}, { 'plaza/nats-client': 'true' });
    objects[APPS.length + 1] = natsStatefulSet(NATS_USERS.filter((u) => u !== 'note'));
    objects[APPS.length + 2] = natsConfig(rendered.replace('"$KV.revocations.>"', '"$KV.>"'), 'max_payload: 8MB\n');
    expect(checkK8sNatsCredentials(objects, rendered)).toEqual([
      'Deployment/identity: NATS_USER must be identity',
      'Deployment/identity: NATS_PASSWORD must come from the Secret identity-nats, key password',
      'Deployment/book: NATS_PASSWORD must come from the Secret book-nats, key password',
      'Job/seed: NATS_USER must be importer',
      'Job/seed: NATS_PASSWORD must come from the Secret importer-nats, key password',
      'StatefulSet/nats: NOTE_NATS_PASSWORD must come from the Secret note-nats, key password (the one note connects with)',
      'ConfigMap/nats-config-h4sh: nats-auth.conf is not the table of tools/stack/src/nats-auth.ts',
      'ConfigMap/nats-config-h4sh nats.conf: must include ./nats-auth.conf (the NATS users and their permissions)',
    ]);
  });

  it('knows each Job and CronJob that talks to NATS by its user, and reports one it does not know', () => {
    const cron = (name: string, env: Container['env']): K8sObject => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name, labels: labels(name) },
      spec: { jobTemplate: { spec: { template: { metadata: { labels: { ...labels(name), 'plaza/nats-client': 'true' } }, spec: { containers: [{ name, env }] } } } } },
    });
    expect(checkK8sNatsCredentials([cron('reconcile', credentials('reconcile'))], rendered)).toEqual([]);
    expect(checkK8sNatsCredentials([cron('reconcile', [])], rendered)).toEqual([
      'CronJob/reconcile: NATS_USER must be reconcile',
      'CronJob/reconcile: NATS_PASSWORD must come from the Secret reconcile-nats, key password',
    ]);
    expect(checkK8sNatsCredentials([workload('Job', 'backfill', credentials('importer'), {}, { 'plaza/nats-client': 'true' })], rendered)).toEqual([
      'Job/backfill: talks to NATS, but has no NATS user (JOB_NATS_USERS in tools/deploy-check/src/nats-users.ts, and a user in tools/stack/src/nats-auth.ts)',
    ]);
  });

  it('reports a NATS whose ConfigMap has no users', () => {
    const map = natsConfig();
    delete map.data!['nats-auth.conf'];
    expect(checkK8sNatsCredentials([natsStatefulSet(), map], rendered)).toEqual(['ConfigMap/nats-config-h4sh: no nats-auth.conf (the NATS users)']);
    expect(checkK8sNatsCredentials([natsStatefulSet()], rendered)).toEqual(['StatefulSet/nats: its configuration ConfigMap nats-config-h4sh is not in this render']);
  });
});

describe('checkComposeNatsCredentials', () => {
  const password = (u: string) => `localComposeOnly${u}NatsPassword`;
  function model(): ComposeModel {
    const services: ComposeModel['services'] = {
      nats: {
        command: ['--config', '/etc/nats/plaza.conf', '--jetstream'],
        volumes: [
          { type: 'bind', source: '/repo/deploy/docker/nats.conf', target: '/etc/nats/plaza.conf' },
          { type: 'bind', source: '/repo/deploy/docker/nats-auth.conf', target: '/etc/nats/nats-auth.conf' },
        ],
        environment: Object.fromEntries(NATS_USERS.map((u) => [`${u.toUpperCase()}_NATS_PASSWORD`, password(u)])),
      },
      seed: { environment: { NATS_URL: 'nats://nats:4222', NATS_USER: 'importer', NATS_PASSWORD: password('importer') } },
    };
    for (const app of APPS) services[app] = { environment: { NATS_URL: 'nats://nats:4222', NATS_USER: app, NATS_PASSWORD: password(app) } };
    return { services };
  }

  it('passes each app and the seed connecting as their own user with the password NATS has', () => {
    expect(checkComposeNatsCredentials(model())).toEqual([]);
  });

  it('reports a missing users file, a missing or unreadable server password, and apps with the wrong user or password', () => {
    const m = model();
    m.services.nats.volumes = m.services.nats.volumes!.slice(0, 1);
    delete m.services.nats.environment!.MOVIE_NATS_PASSWORD;
    m.services.nats.environment!.EVENT_NATS_PASSWORD = '1234567890123456789';
    m.services.gateway.environment!.NATS_USER = 'identity';
    m.services.book.environment!.NATS_PASSWORD = password('note');
    m.services.seed.environment!.NATS_USER = undefined as never;
    expect(checkComposeNatsCredentials(m)).toEqual([
      'compose: nats must mount deploy/docker/nats-auth.conf beside its configuration (/etc/nats/nats-auth.conf)',
      'compose: gateway must connect as NATS_USER gateway',
      "compose: book's NATS_PASSWORD must be nats's BOOK_NATS_PASSWORD",
      'compose: nats needs MOVIE_NATS_PASSWORD',
      'compose: EVENT_NATS_PASSWORD must be letters and digits starting with a letter, 16 or more (nats-server reads it as a config value)',
      "compose: event's NATS_PASSWORD must be nats's EVENT_NATS_PASSWORD",
      'compose: seed must connect as NATS_USER importer',
    ]);
  });
});
