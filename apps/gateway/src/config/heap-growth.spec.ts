import { spawnSync } from 'node:child_process';
import { applyHeapGrowth, HEAP_GROWING_PERCENT } from './heap-growth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));
const { setFlagsFromString } = jest.requireMock('node:v8') as { setFlagsFromString: jest.Mock };

describe('applyHeapGrowth', () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it("sets V8's heap growing percent when the command line names none", () => {
    expect(applyHeapGrowth(['--enable-source-maps', '--no-allocation-site-pretenuring'])).toBe(HEAP_GROWING_PERCENT);
    expect(setFlagsFromString).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it.each(['--heap-growing-percent=50', '--heap_growing_percent=50'])("leaves an operator's %s in place", (flag) => {
    expect(applyHeapGrowth(['--enable-source-maps', flag])).toBeUndefined();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});

describe('the flag applyHeapGrowth sets', () => {
  // V8 ignores a flag it does not know with a warning on stderr, and the gateway would then run
  // with V8's own factor: this fails if a Node upgrade drops or renames the flag
  const stderrOf = (flag: string) => spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], { encoding: 'utf8' }).stderr;

  it('is one this Node knows', () => {
    expect(stderrOf(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)).toBe('');
  });

  it('(the check above tells an unknown flag)', () => {
    expect(stderrOf('--heap-growing-percentage=200')).not.toBe('');
  });
});
