import { initMetrics } from '@plaza/platform';
import { register } from 'prom-client';
import { recordEngineBranch } from './engine-branch-runs';

describe('engine branch runs on /metrics', () => {
  beforeAll(() => initMetrics('test', true));

  it('counts every run of a branch under its name and mode', async () => {
    recordEngineBranch('spec.read', 'local');
    recordEngineBranch('spec.read', 'local');
    recordEngineBranch('spec.read', 'mongodb');
    const text = await register.metrics();
    expect(text).toMatch(/plaza_engine_branch_runs_total\{branch="spec\.read",mode="local",service="test"\} 2\n/);
    expect(text).toMatch(/plaza_engine_branch_runs_total\{branch="spec\.read",mode="mongodb",service="test"\} 1\n/);
  });
});
