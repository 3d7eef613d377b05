import escapeHtml from 'escape-html';

export interface ConsentPageModel {
  appName: string;
  scopes: string[];
  params: Record<string, string | undefined>;
  error?: string;
}

/** The sign-in and consent page of GET /auth2/auth. Every interpolated value is HTML-escaped. */
export function renderConsentPage(model: ConsentPageModel): string {
  const hidden = Object.entries(model.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v!)}">`)
    .join('\n      ');
  const scopes = model.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  const error = model.error ? `<p class="error" role="alert">${escapeHtml(model.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in to allow ${escapeHtml(model.appName)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
    label { display: block; margin-top: .75rem; } input[type=text], input[type=password] { width: 100%; padding: .4rem; }
    .buttons { margin-top: 1.25rem; display: flex; gap: .5rem; } .error { color: #b00020; }
  </style>
</head>
<body>
  <h1>Allow ${escapeHtml(model.appName)}?</h1>
  <p><strong>${escapeHtml(model.appName)}</strong> asks to act on your behalf with these permissions:</p>
  <ul>${scopes}</ul>
  ${error}
  <form method="post" action="/auth2/auth">
      ${hidden}
    <label>User name <input type="text" name="username" autocomplete="username" required></label>
    <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
    <div class="buttons">
      <button type="submit" name="decision" value="approve">Allow</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
    </div>
  </form>
</body>
</html>`;
}

export function renderErrorPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/**
 * The Content-Security-Policy of these pages: inline styles and a form posting back to us, nothing
 * else (API answers carry `default-src 'none'` alone). Over plain http (a laptop) upgrading would
 * break the form's POST, so the upgrade is asked only where https is required.
 *
 * Browsers apply `form-action` to the redirects that follow a form's POST too (Chromium does): the
 * approval's redirect to the app, so the consent page also allows the origin (or, for an app's
 * own scheme, the scheme) of the redirect URI it was shown for, which identity has checked is one
 * the app registered. Without it a browser stays on the page (found by the browser test).
 */
export function signInPagePolicy(requireHttps: boolean, redirectUri?: string): string {
  const target = redirectSource(redirectUri);
  const formAction = target ? `form-action 'self' ${target}` : "form-action 'self'";
  const directives = ["default-src 'none'", "style-src 'unsafe-inline'", formAction, "base-uri 'none'", "frame-ancestors 'none'"];
  if (requireHttps) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** A CSP source for a redirect URI: its origin for http(s), its scheme for an app's own; nothing for what is not a URL. */
function redirectSource(redirectUri: string | undefined): string | undefined {
  if (!redirectUri) return undefined;
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return undefined;
  }
  // nothing that could end the directive (a `;` or a blank) reaches the header
  if (url.protocol === 'http:' || url.protocol === 'https:') return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(url.origin) ? url.origin : undefined;
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined;
}
