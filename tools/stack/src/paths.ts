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

/**
 * Project-local, gitignored folders. PLAZA_TOOLS_DIR puts the installed engines and test tools
 * elsewhere (the start test builds the engines into an empty one, as on a fresh machine).
 */
export const toolsDir = () => (process.env.PLAZA_TOOLS_DIR ? resolve(process.env.PLAZA_TOOLS_DIR) : join(workspaceRoot(), '.tools'));
export const toolsBin = () => join(toolsDir(), 'bin');
export const dataDir = () => process.env.PLAZA_DATA_DIR || join(workspaceRoot(), '.data');
