import { NATS_PASSWORD_PATTERN, NATS_USERS, natsPasswordVariable } from '@plaza/stack';
import { APPS, ComposeModel } from './checks';
import type { Container, K8sObject } from './manifests';

/**
 * NATS authentication and permissions in the deployment files (docs/DECISIONS.md, "NATS"): nats-server has a user
 * with permissions for every process and reads each password from its environment; every app
 * connects as its own user with the password the server has for that user (the same Secret key
 * in Kubernetes, the same value in compose); the users file is the table of
 * tools/stack/src/nats-auth.ts, rendered.
 */

/** The file a NATS server configuration includes for its users. */
export const NATS_AUTH_INCLUDE = 'nats-auth.conf';

/** Each generated users file is the rendered table, byte for byte. */
export function checkNatsAuthRendered(files: Record<string, string>, rendered: string): string[] {
  return Object.entries(files)
    .filter(([, text]) => text !== rendered)
    .map(([name]) => `${name} differs from the table in tools/stack/src/nats-auth.ts: run \`npm run build && node tools/stack/dist/cli.js nats-auth\``);
}

/** Each server configuration includes the users file (without it, NATS lets anyone in). */
export function checkNatsConfigIncludesUsers(configs: Record<string, string>): string[] {
  return Object.entries(configs)
    .filter(([, text]) => !new RegExp(`^\\s*include\\s+"?(\\./)?${NATS_AUTH_INCLUDE.replace('.', '\\.')}"?\\s*$`, 'm').test(text))
    .map(([name]) => `${name}: must include ./${NATS_AUTH_INCLUDE} (the NATS users and their permissions)`);
}

interface UserBlock {
  user: string;
  text: string;
}

/** The `{ user: …, … }` entries of an authorization block, by brace matching (comments and quoted strings skipped). */
export function natsUserBlocks(text: string): UserBlock[] {
  const clean = text.replace(/"(?:[^"\\]|\\.)*"/g, (s) => s.replace(/[{}#]/g, '_')).replace(/#.*$/gm, '');
  const blocks: UserBlock[] = [];
  const re = /\buser\s*[:=]\s*"?([A-Za-z0-9_-]+)"?/g;
  for (let m = re.exec(clean); m; m = re.exec(clean)) {
    // the block is the innermost `{ … }` around the `user:` key
    let depth = 0;
    let start = m.index;
    while (start > 0) {
      start--;
      if (clean[start] === '}') depth++;
      else if (clean[start] === '{') {
        if (depth === 0) break;
        depth--;
      }
    }
    let end = m.index;
    depth = 0;
    while (end < clean.length) {
      if (clean[end] === '{') depth++;
      else if (clean[end] === '}') {
        if (depth === 0) break;
        depth--;
      }
      end++;
    }
    blocks.push({ user: m[1], text: clean.slice(start, end + 1) });
  }
  return blocks;
}

/**
 * A user per process (the apps and the importer), each with its password from its own
 * variable and publish and subscribe permissions with an allow list; no other user, none without
 * permissions, and no `no_auth_user` (which would let a client without credentials in as a user).
 */
export function checkNatsUsers(name: string, text: string, users: readonly string[] = NATS_USERS): string[] {
  const problems: string[] = [];
  const blocks = natsUserBlocks(text);
  if (/^\s*no_auth_user\b/m.test(text.replace(/#.*$/gm, ''))) problems.push(`${name}: no_auth_user lets clients without credentials in`);
  if (!/\bauthorization\s*[:=]?\s*\{/.test(text)) problems.push(`${name}: no authorization block`);
  for (const user of users) {
    const mine = blocks.filter((b) => b.user === user);
    if (mine.length !== 1) {
      problems.push(`${name}: ${mine.length === 0 ? 'no' : 'more than one'} NATS user ${user}`);
      continue;
    }
    const block = mine[0].text;
    const variable = natsPasswordVariable(user as (typeof NATS_USERS)[number]);
    if (!new RegExp(`\\bpassword\\s*[:=]\\s*\\$${variable}\\b`).test(block)) problems.push(`${name}: user ${user} must take its password from $${variable}`);
    if (!/\bpermissions\s*[:=]?\s*\{/.test(block)) problems.push(`${name}: user ${user} has no permissions (it could use every subject)`);
    for (const kind of ['publish', 'subscribe']) {
      if (!new RegExp(`\\b${kind}\\s*[:=]?\\s*\\{[^}]*\\ballow\\s*[:=]\\s*\\[`).test(block)) problems.push(`${name}: user ${user} has no ${kind} allow list`);
    }
  }
  for (const b of blocks) if (!users.includes(b.user)) problems.push(`${name}: unknown NATS user ${b.user}`);
  return problems;
}

type EnvEntry = NonNullable<Container['env']>[number];
const envOf = (c: Container | undefined, name: string): EnvEntry | undefined => c?.env?.find((e) => e.name === name);
const secretRef = (e: EnvEntry | undefined) => e?.valueFrom?.secretKeyRef;
const id = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;

/** The Secret and key holding a NATS user's password in Kubernetes. */
export const natsSecret = (user: string) => ({ name: `${user}-nats`, key: 'password' });

/** The NATS user of each Job or CronJob that talks to NATS (label plaza/nats-client), by its name. */
export const JOB_NATS_USERS: Record<string, string> = { seed: 'importer', reconcile: 'reconcile' };

/** A container connects as `user`: NATS_USER is the user, NATS_PASSWORD comes from `<user>-nats`. */
function containerCredentials(where: string, c: Container | undefined, user: string): string[] {
  const problems: string[] = [];
  if (envOf(c, 'NATS_USER')?.value !== user) problems.push(`${where}: NATS_USER must be ${user}`);
  const ref = secretRef(envOf(c, 'NATS_PASSWORD'));
  const want = natsSecret(user);
  if (ref?.name !== want.name || ref.key !== want.key) problems.push(`${where}: NATS_PASSWORD must come from the Secret ${want.name}, key ${want.key}`);
  return problems;
}

/**
 * Kubernetes: every app's Deployment (and every Job that talks to NATS, as the importer) has its
 * NATS user and password; the NATS StatefulSet gets every user's password from the same Secret
 * key; the nats ConfigMap carries the users file, the rendered table.
 */
export function checkK8sNatsCredentials(objects: K8sObject[], rendered: string): string[] {
  const problems: string[] = [];
  for (const d of objects.filter((o) => o.kind === 'Deployment' && (APPS as readonly string[]).includes(o.metadata.name))) {
    problems.push(...containerCredentials(id(d), d.spec?.template?.spec.containers[0], d.metadata.name));
  }
  const jobs = objects.flatMap((o) => (o.kind === 'Job' ? [{ o, template: o.spec?.template }] : o.kind === 'CronJob' ? [{ o, template: o.spec?.jobTemplate?.spec?.template }] : []));
  for (const { o, template } of jobs.filter((j) => j.template?.metadata?.labels?.['plaza/nats-client'] === 'true')) {
    const user = JOB_NATS_USERS[o.metadata.name];
    if (!user) problems.push(`${id(o)}: talks to NATS, but has no NATS user (JOB_NATS_USERS in tools/deploy-check/src/nats-users.ts, and a user in tools/stack/src/nats-auth.ts)`);
    else problems.push(...containerCredentials(id(o), template?.spec.containers[0], user));
  }
  for (const nats of objects.filter((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats')) {
    const c = nats.spec?.template?.spec.containers[0];
    for (const user of NATS_USERS) {
      const variable = natsPasswordVariable(user);
      const ref = secretRef(envOf(c, variable));
      const want = natsSecret(user);
      if (ref?.name !== want.name || ref.key !== want.key) problems.push(`${id(nats)}: ${variable} must come from the Secret ${want.name}, key ${want.key} (the one ${user} connects with)`);
    }
    const mapName = nats.spec?.template?.spec.volumes?.find((v) => v.configMap)?.configMap?.name;
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === mapName);
    if (!map) problems.push(`${id(nats)}: its configuration ConfigMap ${mapName ?? '(none)'} is not in this render`);
    else {
      if (!map.data?.[NATS_AUTH_INCLUDE]) problems.push(`${id(map)}: no ${NATS_AUTH_INCLUDE} (the NATS users)`);
      else if (map.data[NATS_AUTH_INCLUDE] !== rendered) problems.push(`${id(map)}: ${NATS_AUTH_INCLUDE} is not the table of tools/stack/src/nats-auth.ts`);
      if (map.data?.['nats.conf'] !== undefined) problems.push(...checkNatsConfigIncludesUsers({ [`${id(map)} nats.conf`]: map.data['nats.conf'] }));
    }
  }
  return problems;
}

/**
 * Compose: nats mounts the users file beside its configuration and has every user's password in
 * its environment; every app (and the seed, as the importer) connects as its own user with the
 * same password; each password is one nats-server reads intact (letters and digits).
 */
export function checkComposeNatsCredentials(model: ComposeModel): string[] {
  const problems: string[] = [];
  const services = model.services ?? {};
  const nats = services.nats;
  if (!nats) return ['compose: no nats service'];
  const cmd = nats.command ?? [];
  const config = cmd.indexOf('--config') >= 0 ? cmd[cmd.indexOf('--config') + 1] : undefined;
  const besideConfig = config ? `${config.slice(0, config.lastIndexOf('/') + 1)}${NATS_AUTH_INCLUDE}` : undefined;
  if (!nats.volumes?.some((v) => v.target === besideConfig && v.source?.endsWith(`deploy/docker/${NATS_AUTH_INCLUDE}`))) {
    problems.push(`compose: nats must mount deploy/docker/${NATS_AUTH_INCLUDE} beside its configuration (${besideConfig ?? '--config'})`);
  }
  const serverEnv = nats.environment ?? {};
  for (const user of NATS_USERS) {
    const variable = natsPasswordVariable(user);
    const password = serverEnv[variable];
    if (!password) {
      problems.push(`compose: nats needs ${variable}`);
      continue;
    }
    if (!NATS_PASSWORD_PATTERN.test(password)) problems.push(`compose: ${variable} must be letters and digits starting with a letter, 16 or more (nats-server reads it as a config value)`);
    const clients = Object.entries(JOB_NATS_USERS).filter(([, u]) => u === user).map(([name]) => name).concat(user);
    for (const name of clients) {
      const env = services[name]?.environment;
      if (!services[name]) continue;
      if (env?.NATS_USER !== user) problems.push(`compose: ${name} must connect as NATS_USER ${user}`);
      if (env?.NATS_PASSWORD !== password) problems.push(`compose: ${name}'s NATS_PASSWORD must be nats's ${variable}`);
    }
  }
  return problems;
}
