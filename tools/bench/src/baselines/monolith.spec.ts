import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from '@plaza/stack';
import { BORROWED } from './monolith';

describe('baseline M (monolith)', () => {
  // it loads these from the services' build output by path, which no compiler checks: a moved or
  // renamed module would only show when the benchmark starts
  it.each(BORROWED)('borrows $name from apps/$app/src/$module, which exports it', ({ app, module, name }) => {
    const source = readFileSync(join(workspaceRoot(), 'apps', app, 'src', `${module}.ts`), 'utf8');
    expect(source).toMatch(new RegExp(`export (async )?function ${name}\\b`));
  });
});
