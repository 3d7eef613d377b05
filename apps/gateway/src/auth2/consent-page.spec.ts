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

  it("lets the approval's redirect go to the app's redirect URI: its origin, or its own scheme", () => {
    expect(signInPagePolicy(false, 'http://127.0.0.1:9/callback?x=1').split('; ')).toContain("form-action 'self' http://127.0.0.1:9");
    expect(signInPagePolicy(false, 'https://app.example.com/cb').split('; ')).toContain("form-action 'self' https://app.example.com");
    expect(signInPagePolicy(false, 'com.example.app:/oauth').split('; ')).toContain("form-action 'self' com.example.app:");
    expect(signInPagePolicy(false, 'not a url').split('; ')).toContain("form-action 'self'");
    expect(signInPagePolicy(false, 'http://a;script-src*/').split('; ')).toContain("form-action 'self'");
  });
});
