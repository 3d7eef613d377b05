import { signInPagePolicy } from './consent-page';

// Through HTTP (plain http): apps/api-e2e/src/security/headers-cors-jsonp.e2e-spec.ts.
describe('signInPagePolicy', () => {
  it('allows the page its inline styles and its form, and runs no script', () => {
    const directives = signInPagePolicy(false).split('; ');
    expect(directives).toEqual(["default-src 'none'", "style-src 'unsafe-inline'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"]);
  });

  it('asks browsers to upgrade only where https is required (over plain http the form could not post)', () => {
    expect(signInPagePolicy(true).split('; ')).toContain('upgrade-insecure-requests');
    expect(signInPagePolicy(false)).not.toContain('upgrade-insecure-requests');
  });
});
