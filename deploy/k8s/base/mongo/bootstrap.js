// Runs in the mongo pod's `bootstrap` container (mongosh, connected over localhost), at every
// start, idempotently:
//  1. initiates the replica set rs0 with this pod's stable name as its only member;
//  2. creates the `root` user from the mongo-auth Secret (MongoDB's localhost exception allows
//     the first user) and signs in as it;
//  3. for each service whose `<service>-db` Secret is mounted under /etc/plaza-db/<service>/url,
//     creates or updates the user named in that URL, with readWrite on the URL's database only.
// So the services' connection strings are the one source of truth for their credentials.
const fs = require('fs');
const path = require('path');

const member = process.env.MONGO_MEMBER_HOST;
try {
  rs.status();
} catch (e) {
  print(`initiating replica set rs0 with ${member}`);
  rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: member }] });
}
for (let i = 0; i < 120 && !db.hello().isWritablePrimary; i++) sleep(1000);
if (!db.hello().isWritablePrimary) throw new Error('no primary after two minutes');

const admin = db.getSiblingDB('admin');
const rootPassword = fs.readFileSync('/etc/mongo-auth/root-password', 'utf8').trim();
try {
  admin.createUser({ user: 'root', pwd: rootPassword, roles: ['root'] });
  print('created the root user');
} catch (e) {
  // exists already (the localhost exception is closed): sign in below
}
admin.auth('root', rootPassword);

const root = '/etc/plaza-db';
for (const service of fs.existsSync(root) ? fs.readdirSync(root) : []) {
  const file = path.join(root, service, 'url');
  if (!fs.existsSync(file)) continue;
  const url = new URL(fs.readFileSync(file, 'utf8').trim());
  const user = decodeURIComponent(url.username);
  const pwd = decodeURIComponent(url.password);
  const dbName = url.pathname.replace(/^\//, '') || service;
  if (!user || !pwd) throw new Error(`${service}-db url has no user or password`);
  const target = db.getSiblingDB(dbName);
  const roles = [{ role: 'readWrite', db: dbName }];
  if (target.getUser(user)) target.updateUser(user, { pwd, roles });
  else target.createUser({ user, pwd, roles });
  print(`user ${user}: readWrite on ${dbName}`);
}
print('bootstrap done');
