import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The workspace root: the nearest folder above this file with nx.json. */
export function workspaceRoot(): string {
  let dir = resolve(__dirname);
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the workspace root (nx.json)');
    dir = parent;
  }
  return dir;
}

/** Project-local, gitignored folders. */
export const toolsDir = () => join(workspaceRoot(), '.tools');
export const toolsBin = () => join(toolsDir(), 'bin');
export const dataDir = () => process.env.PLAZA_DATA_DIR || join(workspaceRoot(), '.data');
