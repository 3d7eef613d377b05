import { Scopes } from '@plaza/contracts';
import { AreaGenerator, demoUserIds } from '../catalogue';
import { enName, zhName } from '../text';

/**
 * Demo accounts printed by `npm start`. Demo only: anyone who reads this file knows them, so a
 * production deployment imports its own users and apps instead.
 */
export const DEMO_PASSWORD = 'plaza-demo';
export const DEMO_USERS = [
  { id: '100001', uid: 'ahmed', name: '阿迈德 Ahmed' },
  { id: '100002', uid: 'lin', name: '林小雨' },
  { id: '100003', uid: 'sam', name: 'Sam Carter' },
];
export const DEMO_APPS = [
  { client_id: 'demo-premium', client_secret: 'demo-premium-secret', name: 'Demo premium app', tier: 'premium', trusted: true },
  { client_id: 'demo-advance', client_secret: 'demo-advance-secret', name: 'Demo advance app', tier: 'advance', trusted: true },
  { client_id: 'demo-basic', client_secret: 'demo-basic-secret', name: 'Demo basic app', tier: 'basic', trusted: true },
  { client_id: 'demo-browser', name: 'Demo browser app (public client, PKCE)', tier: 'basic', trusted: false },
] as const;
export const DEMO_REDIRECT_URI = 'http://127.0.0.1:8080/web/callback';

export const identityGenerator: AreaGenerator = function* (random, size) {
  const ids = demoUserIds(size);
  for (const [i, id] of ids.entries()) {
    const known = DEMO_USERS.find((u) => u.id === id);
    const name = known?.name ?? (random.chance(0.6) ? zhName(random) : enName(random));
    yield {
      kind: 'user',
      id,
      uid: known?.uid ?? `reader${i + 1}`,
      name,
      signature: random.chance(0.5) ? '读书，看电影，写日记。' : 'Books, films and notes.',
      created: `20${String(15 + (i % 10)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10} 09:30:00`,
      password: DEMO_PASSWORD,
    };
  }
  for (const app of DEMO_APPS) {
    yield { kind: 'app', ...app, scopes: [...Scopes], redirect_uris: [DEMO_REDIRECT_URI] };
  }
  // a ring of friendships plus a few random ones
  for (let i = 0; i < ids.length; i++) {
    yield { kind: 'friendship', user_id: ids[i], friend_id: ids[(i + 1) % ids.length] };
    if (random.chance(0.3)) {
      const other = random.pick(ids);
      if (other !== ids[i]) yield { kind: 'friendship', user_id: ids[i], friend_id: other };
    }
  }
};
