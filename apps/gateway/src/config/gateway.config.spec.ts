import { loadConfig } from '@plaza/platform';
import { GatewayConfig } from './gateway.config';

const load = (env: Record<string, string>) => loadConfig(GatewayConfig, { PICTURE_SIGNING_KEY: 'k'.repeat(16), ...env });

describe('GatewayConfig', () => {
  it.each([['false', false], ['0', false], ['true', true], ['1', true]])('reads REQUIRE_HTTPS=%s as %s, even in production', (value, expected) => {
    expect(load({ REQUIRE_HTTPS: value, NODE_ENV: 'production' }).requireHttps).toBe(expected);
  });

  it('requires https by default only in production', () => {
    expect(load({ NODE_ENV: 'production' }).requireHttps).toBe(true);
    expect(load({}).requireHttps).toBe(false);
  });

  it('fails at start-up on a bad value, naming the variable', () => {
    expect(() => load({ REQUIRE_HTTPS: 'maybe' })).toThrow(/REQUIRE_HTTPS/);
    expect(() => load({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig(GatewayConfig, {})).toThrow(/PICTURE_SIGNING_KEY/);
  });

  it('bounds the response cache in bytes: 64 MiB by default, at least 1 KiB, a number', () => {
    expect(load({}).RESPONSE_CACHE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(load({ RESPONSE_CACHE_MAX_BYTES: '1048576' }).RESPONSE_CACHE_MAX_BYTES).toBe(1048576);
    expect(() => load({ RESPONSE_CACHE_MAX_BYTES: '100' })).toThrow(/RESPONSE_CACHE_MAX_BYTES/);
    expect(() => load({ RESPONSE_CACHE_MAX_BYTES: 'lots' })).toThrow(/RESPONSE_CACHE_MAX_BYTES/);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback,uniquelocal,fd00::/8', ['loopback', 'uniquelocal', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(load({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['maybe', '10.0.0.0/99', '300.1.1.1', ' , '])('refuses TRUST_PROXY=%s at start-up, naming it', (value) => {
    expect(() => load({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});
