import { EVENT_CATEGORIES, EventCategory } from '@plaza/contracts';
import { AreaGenerator, CatalogueRecord, CatalogueSize, demoUserIds } from '../catalogue';
import { Random } from '../random';
import { prose, zhTitle } from '../text';

/**
 * The event part of the demo catalogue: regions and cities, events, participants and wishers.
 *
 * Events must look current whenever someone runs `npm start`, so their dates are laid out
 * around the day the catalogue is generated (in Asia/Shanghai): from 30 days before to 90 days
 * after it. Only that day comes from the clock; everything else (which events, where, when in
 * the day, who takes part) comes from the seeded Random, so two catalogues generated on the same
 * day are identical. The catalogue is generated once, for an empty database: events age with it
 * (start from an empty data folder for fresh ones).
 */

/** Regions (habitable no): the country, then provinces. */
const REGIONS: Array<[id: string, uid: string, name: string, parent: string]> = [
  ['100000', 'china', '中国', ''],
  ['100011', 'zhejiang', '浙江', 'china'],
  ['100012', 'jiangsu', '江苏', 'china'],
  ['100013', 'guangdong', '广东', 'china'],
  ['100014', 'sichuan', '四川', 'china'],
  ['100015', 'hubei', '湖北', 'china'],
  ['100016', 'shaanxi', '陕西', 'china'],
  ['100017', 'hunan', '湖南', 'china'],
  ['100018', 'fujian', '福建', 'china'],
  ['100019', 'shandong', '山东', 'china'],
  ['100020', 'liaoning', '辽宁', 'china'],
  ['100021', 'heilongjiang', '黑龙江', 'china'],
  ['100022', 'yunnan', '云南', 'china'],
  ['100023', 'henan', '河南', 'china'],
  ['100024', 'anhui', '安徽', 'china'],
  ['100025', 'jiangxi', '江西', 'china'],
  ['100026', 'guangxi', '广西', 'china'],
  ['100027', 'hainan', '海南', 'china'],
  ['100028', 'guizhou', '贵州', 'china'],
  ['100029', 'shanxi', '山西', 'china'],
  ['100030', 'jilin', '吉林', 'china'],
];

/** Cities: id, uid, name, parent region uid, "lat lng", relative weight (how many events). */
const CITIES: Array<[id: string, uid: string, name: string, parent: string, geo: string, weight: number]> = [
  ['108288', 'beijing', '北京', 'china', '39.9042 116.4074', 12],
  ['108296', 'shanghai', '上海', 'china', '31.2304 121.4737', 12],
  ['108289', 'tianjin', '天津', 'china', '39.3434 117.3616', 3],
  ['108309', 'chongqing', '重庆', 'china', '29.5630 106.5516', 4],
  ['118281', 'guangzhou', '广州', 'guangdong', '23.1291 113.2644', 7],
  ['118282', 'shenzhen', '深圳', 'guangdong', '22.5431 114.0579', 7],
  ['118172', 'hangzhou', '杭州', 'zhejiang', '30.2741 120.1551', 6],
  ['118173', 'ningbo', '宁波', 'zhejiang', '29.8683 121.5440', 2],
  ['118159', 'nanjing', '南京', 'jiangsu', '32.0603 118.7969', 5],
  ['118163', 'suzhou', '苏州', 'jiangsu', '31.2990 120.5853', 3],
  ['118318', 'chengdu', '成都', 'sichuan', '30.5728 104.0668', 6],
  ['118254', 'wuhan', '武汉', 'hubei', '30.5928 114.3055', 5],
  ['118371', 'xian', '西安', 'shaanxi', '34.3416 108.9398', 4],
  ['118267', 'changsha', '长沙', 'hunan', '28.2282 112.9388', 3],
  ['118200', 'xiamen', '厦门', 'fujian', '24.4798 118.0894', 3],
  ['118201', 'fuzhou', '福州', 'fujian', '26.0745 119.2965', 2],
  ['118221', 'qingdao', '青岛', 'shandong', '36.0671 120.3826', 3],
  ['118220', 'jinan', '济南', 'shandong', '36.6512 117.1201', 2],
  ['118124', 'dalian', '大连', 'liaoning', '38.9140 121.6147', 2],
  ['118123', 'shenyang', '沈阳', 'liaoning', '41.8057 123.4315', 2],
  ['118146', 'haerbin', '哈尔滨', 'heilongjiang', '45.8038 126.5349', 2],
  ['118342', 'kunming', '昆明', 'yunnan', '24.8801 102.8329', 2],
  ['118237', 'zhengzhou', '郑州', 'henan', '34.7466 113.6254', 2],
  ['118183', 'hefei', '合肥', 'anhui', '31.8206 117.2272', 2],
  ['118209', 'nanchang', '南昌', 'jiangxi', '28.6820 115.8579', 1],
  ['118303', 'nanning', '南宁', 'guangxi', '22.8170 108.3665', 1],
  ['118313', 'haikou', '海口', 'hainan', '20.0440 110.1999', 1],
  ['118332', 'guiyang', '贵阳', 'guizhou', '26.6470 106.6302', 1],
  ['118109', 'taiyuan', '太原', 'shanxi', '37.8706 112.5489', 1],
  ['118137', 'changchun', '长春', 'jilin', '43.8171 125.3235', 1],
];

const VENUES = ['文化中心', '美术馆', '剧场', 'Livehouse', '书店', '体育场', '公园', '创意园', '图书馆', '咖啡馆', '艺术空间', '会展中心'];

/** Title, typical start hours and length (hours) per category; exhibitions run for days. */
const KINDS: Record<EventCategory, { title: (r: Random, city: string) => string; hours: number[]; length: [number, number] }> = {
  music: { title: (r, city) => r.pick([`${zhTitle(r)}音乐会`, `${city}${zhTitle(r)}现场`, `${zhTitle(r)}乐队巡演·${city}站`]), hours: [19, 20], length: [2, 3] },
  drama: { title: (r) => `话剧《${zhTitle(r)}》`, hours: [14, 19], length: [2, 3] },
  exhibition: { title: (r) => `${zhTitle(r)}主题展`, hours: [9, 10], length: [8, 8] },
  salon: { title: (r) => `讲座：${zhTitle(r)}与${zhTitle(r)}`, hours: [14, 15, 19], length: [2, 2] },
  party: { title: (r) => r.pick([`${zhTitle(r)}读书会`, `周末${zhTitle(r)}聚会`, `${zhTitle(r)}桌游夜`]), hours: [14, 19, 20], length: [3, 4] },
  sports: { title: (r, city) => r.pick([`${city}城市夜跑`, `${zhTitle(r)}飞盘赛`, `${city}骑行日`]), hours: [7, 8, 19], length: [2, 4] },
  travel: { title: (r, city) => r.pick([`${city}近郊徒步`, `${zhTitle(r)}古镇一日游`, `${zhTitle(r)}山野露营`]), hours: [7, 8], length: [8, 10] },
  commonweal: { title: (r) => r.pick([`公益：${zhTitle(r)}志愿行动`, `${zhTitle(r)}旧书义卖`, `社区${zhTitle(r)}植树`]), hours: [9, 10], length: [3, 4] },
  film: { title: (r) => `电影放映：《${zhTitle(r)}》`, hours: [19, 20], length: [2, 3] },
  others: { title: (r) => r.pick([`${zhTitle(r)}市集`, `${zhTitle(r)}手作工坊`, `${zhTitle(r)}分享会`]), hours: [10, 14], length: [3, 5] },
};

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day `offset` days after `day` (`yyyy-MM-dd`). */
function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + offset));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Today in Asia/Shanghai (the default SERVICE_TIMEZONE), `yyyy-MM-dd`. */
export function demoToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Picks an element with probability proportional to its weight. */
function weighted<T>(random: Random, items: T[], weightOf: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weightOf(item), 0);
  let x = random.next() * total;
  for (const item of items) {
    x -= weightOf(item);
    if (x < 0) return item;
  }
  return items[items.length - 1];
}

const CATEGORY_WEIGHT: Record<EventCategory, number> = {
  music: 5, drama: 3, exhibition: 3, salon: 4, party: 4, sports: 3, travel: 2, commonweal: 2, film: 3, others: 1,
};

/** The event generator for catalogues made on `today` (`yyyy-MM-dd` in Asia/Shanghai). */
export function eventGeneratorFor(today: string): AreaGenerator {
  return function* (random: Random, size: CatalogueSize): Iterable<CatalogueRecord> {
    for (const [id, uid, name, parent] of REGIONS) yield { kind: 'loc', id, uid, name, parent, habitable: 'no' };
    for (const [id, uid, name, parent] of CITIES) yield { kind: 'loc', id, uid, name, parent, habitable: 'yes' };

    const users = demoUserIds(size);
    const links: CatalogueRecord[] = [];
    for (let i = 0; i < size.events; i++) {
      const id = String(500001 + i);
      const [locId, , cityName, , geo] = weighted(random, CITIES, (c) => c[5]);
      const category = weighted(random, EVENT_CATEGORIES, (c) => CATEGORY_WEIGHT[c]);
      const kind = KINDS[category];
      // from a month ago to three months ahead, more of them soon
      const offset = random.chance(0.25) ? random.int(-30, -1) : random.chance(0.5) ? random.int(0, 21) : random.int(22, 90);
      const firstDay = addDays(today, offset);
      const days = category === 'exhibition' ? random.int(3, 45) : category === 'travel' && random.chance(0.3) ? random.int(2, 3) : 1;
      const lastDay = addDays(firstDay, days - 1);
      const hour = random.pick(kind.hours);
      const minute = random.pick([0, 0, 30]);
      const endHour = Math.min(23, hour + random.int(kind.length[0], kind.length[1]));
      const owner = i % 60 === 0 ? users[0] : random.pick(users);
      const isPrivate = random.chance(0.03);
      const lat = (Number(geo.split(' ')[0]) + (random.next() - 0.5) * 0.2).toFixed(4);
      const lng = (Number(geo.split(' ')[1]) + (random.next() - 0.5) * 0.2).toFixed(4);
      yield {
        kind: 'event',
        id,
        title: kind.title(random, cityName),
        content: prose(random, random.int(2, 6)),
        category,
        begin_time: `${firstDay} ${pad(hour)}:${pad(minute)}:00`,
        end_time: `${lastDay} ${pad(endHour)}:${pad(minute)}:00`,
        owner: { id: owner },
        loc_id: locId,
        geo: `${lat} ${lng}`,
        address: `${cityName}${random.pick(VENUES)}${random.int(1, 9)}号厅`,
        album: random.chance(0.3) ? String(700000 + i) : '',
        is_priv: isPrivate ? 'yes' : 'no',
        has_invited: 'no',
        can_invite: isPrivate ? 'yes' : random.pick(['yes', 'no']),
      };

      // a few popular events; the first demo user takes part in some, so a demo login sees its lists filled
      const popular = random.chance(0.08);
      const joiners = random.sample(users.filter((u) => u !== owner), isPrivate ? random.int(1, 4) : popular ? random.int(15, 35) : random.int(0, 6));
      if (!isPrivate && !joiners.includes(users[0]) && users[0] !== owner && random.chance(0.06)) joiners.push(users[0]);
      for (const user of joiners) {
        const participate_date = days > 1 && random.chance(0.6) ? addDays(firstDay, random.int(0, days - 1)) : undefined;
        links.push({ kind: 'event_participant', event_id: id, user_id: user, ...(participate_date ? { participate_date } : {}) });
      }
      if (!isPrivate) {
        const wishers = random.sample(users.filter((u) => u !== owner), popular ? random.int(10, 30) : random.int(0, 5));
        for (const user of wishers) links.push({ kind: 'event_wisher', event_id: id, user_id: user });
      }
    }
    yield* links;
  };
}

/** The demo catalogue's events, around the day it is generated (see the comment at the top). */
export const eventGenerator: AreaGenerator = (random, size) => eventGeneratorFor(demoToday())(random, size);
