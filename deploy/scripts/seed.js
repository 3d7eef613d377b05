#!/usr/bin/env node
'use strict';
/**
 * One-shot demo seed: the `seed` service of docker-compose.yml and the dev overlay's seed Job.
 * It generates the project's own demo catalogue (@plaza/demo writeCatalogue, the same data
 * `npm start` loads) and loads it through the importer CLI over NATS, when:
 *  - identity has no users yet (a new installation), or
 *  - a previous seed stopped midway (the demo users exist but the completion marker does not;
 *    the import upserts by id, so loading again finishes the job without duplicates).
 * It does nothing when the marker is there, or when identity has users of its own (not the demo
 * ones): safe to run on every `docker compose up`. The marker is one document in identity's
 * database, collection `plaza_demo_seed`, written after a complete import.
 *
 * Environment: NATS_URL with the importer's NATS user (NATS_USER=importer and NATS_PASSWORD, passed on
 * to the importer; NATS lets no one else import), and IDENTITY_MONGO_URL or MONGO_URL (identity's database).
 * Runs from the importer image (/app/deploy/scripts/seed.js) or from a built checkout.
 */
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { MongoClient } = require('mongodb');
const demo = require('@plaza/demo');

const say = (line) => process.stdout.write(`${line}\n`);

/** The database name rule of libs/service-kit (databaseNameFor): the URL's path, else the service name. */
function databaseName(url, service) {
  const path = url.split('?')[0].replace(/^mongodb(\+srv)?:\/\/[^/]*/, '').replace(/^\//, '');
  return path || service;
}

const MARKER = 'plaza_demo_seed';

/** 'seeded', 'empty', 'partial' (demo users without the marker) or 'foreign' (someone else's users). */
async function seedState(db) {
  if (await db.collection(MARKER).findOne({ _id: 'demo' })) return 'seeded';
  if ((await db.collection('users').estimatedDocumentCount()) === 0) return 'empty';
  if (await db.collection('users').findOne({ _id: demo.DEMO_USERS[0].id })) return 'partial';
  return 'foreign';
}

async function main() {
  const mongoUrl = process.env.IDENTITY_MONGO_URL || process.env.MONGO_URL;
  if (!mongoUrl) throw new Error('set IDENTITY_MONGO_URL or MONGO_URL');
  if (!process.env.NATS_URL) throw new Error('set NATS_URL');
  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 30_000 });
  try {
    const db = client.db(databaseName(mongoUrl, 'identity'));
    const state = await seedState(db);
    if (state === 'seeded') {
      say('the demo catalogue is loaded already: nothing to do');
      return 0;
    }
    if (state === 'foreign') {
      say('identity has users that are not the demo ones: the demo catalogue is not loaded');
      return 0;
    }
    const code = await load(state);
    if (code !== 0) return code;
    await db.collection(MARKER).updateOne({ _id: 'demo' }, { $set: { loadedAt: new Date() } }, { upsert: true });
  } finally {
    await client.close();
  }
  say(`demo users (password "${demo.DEMO_PASSWORD}"): ${demo.DEMO_USERS.map((u) => u.uid).join(', ')}`);
  for (const app of demo.DEMO_APPS) {
    say(`demo app ${app.client_id} (tier ${app.tier})${'client_secret' in app ? ` secret ${app.client_secret}` : ', public client'}`);
  }
  return 0;
}

/** Generates the catalogue into a temporary file and runs the importer on it. */
async function load(state) {
  const dir = mkdtempSync(join(tmpdir(), 'plaza-seed-'));
  try {
    const file = join(dir, 'demo-catalogue.ndjson');
    say(state === 'empty' ? 'empty database: generating the demo catalogue...' : 'an earlier seed stopped midway: loading the demo catalogue again...');
    const counts = await demo.writeCatalogue(file);
    say(`  ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const importer = join(__dirname, '..', '..', 'apps', 'importer', 'dist', 'main.js');
    const result = spawnSync(process.execPath, [importer, file], { stdio: 'inherit', env: process.env });
    if (result.status !== 0) say(`the importer reported problems (exit ${result.status}); run the seed again to finish`);
    return result.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`seed failed: ${err.message}\n`);
    process.exit(1);
  },
);
