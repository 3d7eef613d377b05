import { Stack, ensureSchemathesis, workspaceRoot } from '@plaza/stack';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPrivateStack, stopPrivateStack } from '../support/private-stack';
import { runImporter } from '../support/global-setup';
import { Apps, PASSWORD, Users } from '../support/fixtures';
import { api } from '../support/http';

/**
 * Property-based fuzzing of the whole API from its own OpenAPI document (docs/RELIABILITY-fuzz.md).
 * Checks: no 5xx (not_a_server_error), only documented statuses (status_code_conformance), every
 * error in the `{msg, code, request}` shape of docs/api/README.md, "Errors" (error_body_format, tools/fuzz/hooks.py), and
 * answers of the documented media type and shape (content_type_conformance, response_schema_conformance).
 * The seed is fixed, so a run is reproducible.
 */
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES || 25);
const CHECKS = 'not_a_server_error,status_code_conformance,error_body_format,content_type_conformance,response_schema_conformance';
/** A fixed seed (with pinned schemathesis and hypothesis versions) makes every run send the same cases. */
const SEED = process.env.FUZZ_SEED || '20261124';
const fixtures = join(__dirname, '..', '..', 'fixtures');

interface KnownRule {
  /** A regex of the OpenAPI path (`/v2/book/{id}/tags`). */
  path: string;
  param: string;
  values: string[];
}

/** Records of the fixtures, a few of each kind, by the fields path parameters use. */
function fixtureValues(): Record<string, { ids: string[]; names: string[] }> {
  const kinds: Record<string, { ids: string[]; names: string[] }> = {};
  for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.ndjson'))) {
    for (const line of readFileSync(join(fixtures, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as { kind: string; id?: string; uid?: string; isbn13?: string; isbn10?: string; imdb?: string };
      const kind = (kinds[record.kind] ??= { ids: [], names: [] });
      if (!record.id || kind.ids.length >= 3) continue;
      kind.ids.push(record.id);
      for (const name of [record.uid, record.isbn13, record.isbn10, record.imdb]) if (name) kind.names.push(name);
    }
  }
  return kinds;
}

/**
 * Which existing records each path parameter may name (the first rule whose path matches wins):
 * the fuzzer (tools/fuzz/hooks.py) uses them for many cases, so it reaches the handlers behind a
 * found resource and not only their 404s.
 */
function knownParameters(created: { note: string; comment: string; annotation: string; review: string }): KnownRule[] {
  const f = fixtureValues();
  const users = { ids: [...f.user.ids, '1001'], names: [...f.user.names, 'alice'] };
  return [
    { path: '^/v2/book/user/', param: 'name', values: [...users.names, ...users.ids] },
    // the user resource (docs/api/user.md): uid or numeric id, so the 200 path is fuzzed, not only 404/6008
    { path: '^/v2/user/', param: 'name', values: [...users.names, ...users.ids] },
    { path: '^/v2/(book/user_tags|note/user_|event/user_)', param: 'id', values: users.ids },
    { path: '^/v2/book/isbn/', param: 'name', values: f.book.names },
    { path: '^/v2/book/series/', param: 'id', values: f.series.ids },
    { path: '^/v2/book/annotation/', param: 'id', values: [created.annotation] },
    { path: '^/v2/book/review/', param: 'id', values: [created.review] },
    { path: '^/v2/book/', param: 'id', values: f.book.ids },
    { path: '^/v2/movie/subject/', param: 'id', values: f.movie.ids },
    { path: '^/v2/movie/celebrity/', param: 'id', values: f.celebrity.ids },
    { path: '^/v2/movie/imdb/', param: 'imdb', values: f.movie.names },
    { path: '^/v2/note/', param: 'id', values: [created.note] },
    { path: '^/v2/note/', param: 'cid', values: [created.comment] },
    { path: '^/v2/event/', param: 'id', values: f.event.ids },
    { path: '^/v2/loc/', param: 'id', values: f.loc.ids },
  ];
}

/** Runs in `cwd`, where schemathesis keeps its crash files for `st replay`. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env }, cwd });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

describe('API fuzzing with schemathesis', () => {
  let stack: Stack | undefined;

  beforeAll(async () => {
    // rate limits off: the fuzzer sends far more than 150 anonymous calls an hour, and a 429 would
    // hide the handler behind it; failed sign-ins are not slowed down or locked for the same reason
    stack = await startPrivateStack({
      env: { RATE_LIMIT_ENABLED: 'false', LOGIN_SLOWDOWN_AFTER: '1000000', LOGIN_LOCK_AFTER: '1000000', LOG_LEVEL: 'warn' },
    });
    for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.ndjson') && f !== 'platform.ndjson').sort()) {
      runImporter(stack, join(fixtures, file));
    }
  }, 180_000);

  afterAll(() => stopPrivateStack(stack));

  /** A password-grant token of alice for an app. */
  async function tokenOf(clientId: string, secret: string | undefined): Promise<string> {
    const grant = await api('POST', '/auth2/token', {
      baseUrl: stack!.baseUrl,
      form: { grant_type: 'password', client_id: clientId, client_secret: secret, username: Users.alice.uid, password: PASSWORD },
    });
    expect(grant.status).toBe(200);
    return grant.body.access_token as string;
  }

  /** One schemathesis run; its exit code. */
  async function schemathesis(name: string, token: string, known: KnownRule[], extra: string[] = []): Promise<number> {
    const reportDir = join(stack!.options.dataDir, 'fuzz-report', name);
    mkdirSync(reportDir, { recursive: true });
    const started = Date.now();
    const code = await run(
      ensureSchemathesis((line) => process.stdout.write(`${line}\n`)),
      [
        'run', `${stack!.baseUrl}/v2/openapi.json`,
        '--header', `Authorization: Bearer ${token}`,
        '--checks', CHECKS,
        '--phases', 'examples,coverage,fuzzing',
        '--max-examples', String(MAX_EXAMPLES),
        '--seed', SEED,
        // no example database: a run sends only what the seed derives
        '--generation-database', 'none',
        // one worker: Python 3.11's ast module is not thread-safe, and hypothesis parses lambdas
        '--workers', '1',
        '--request-timeout', '15',
        '--suppress-health-check', 'all',
        '--report', 'junit', '--report-dir', reportDir,
        '--no-color',
        ...extra,
      ],
      {
        SCHEMATHESIS_HOOKS: 'hooks',
        PYTHONPATH: join(workspaceRoot(), 'tools', 'fuzz'),
        FUZZ_KNOWN_PARAMETERS: JSON.stringify(known),
      },
      reportDir,
    );
    process.stdout.write(`\n[fuzz] ${name}: schemathesis finished in ${Math.round((Date.now() - started) / 1000)} s with exit code ${code}; report in ${reportDir}\n`);
    return code;
  }

  it('finds no server error, undocumented status or malformed error', async () => {
    // a trusted premium app and a user: every scope, so every operation is reachable
    const token = await tokenOf(Apps.premium.clientId, Apps.premium.secret);
    // records of the token's user, so paths of notes, comments, annotations and reviews have ids that exist
    const created = async (path: string, form: Record<string, string>) => {
      const res = await api('POST', path, { baseUrl: stack!.baseUrl, token, form });
      expect({ path, status: res.status }).toEqual({ path, status: 201 });
      return String(res.body.id);
    };
    const book = fixtureValues().book.ids[0];
    const note = await created('/v2/notes', { title: 'fuzz', content: 'a note for the fuzzer' });
    const known = knownParameters({
      note,
      comment: await created(`/v2/note/${note}/comments`, { content: 'a comment' }),
      annotation: await created(`/v2/book/${book}/annotations`, { content: 'an annotation for the fuzzer', page: '1' }),
      review: await created('/v2/book/reviews', { book, title: 'fuzz', content: 'a review for the fuzzer '.repeat(8) }),
    });

    const everything = await schemathesis('premium', token, known);
    // the movie endpoints a premium app may not call (celebrities, top250, weekly...) with an advance app
    const movies = await schemathesis('advance-movies', await tokenOf(Apps.advance.clientId, Apps.advance.secret), known, [
      '--include-path-regex', '^/v2/movie/',
    ]);
    expect({ everything, movies }).toEqual({ everything: 0, movies: 0 });
  });
});
