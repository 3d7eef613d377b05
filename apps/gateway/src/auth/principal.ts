import { ANONYMOUS, Caller } from '@plaza/contracts';

/**
 * A caller as the gateway knows it: who asks (the `Caller` every message to a service carries)
 * and what their token allows, which the gateway alone checks and no message carries
 * (docs/DECISIONS.md, "Scopes are checked at the gateway").
 */
export interface Principal {
  readonly caller: Caller;
  readonly scopes: readonly string[];
}

/** No token, no apikey. */
export const ANONYMOUS_PRINCIPAL: Principal = Object.freeze({ caller: ANONYMOUS, scopes: Object.freeze([]) });

/** An app calling with its `apikey`: no token, so no scopes. */
export function apikeyPrincipal(clientId: string, tier: Caller['tier']): Principal {
  return { caller: { clientId, tier }, scopes: [] };
}
