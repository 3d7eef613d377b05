import { Random } from './random';

/** Word pools for titles, names and prose, in Chinese and English. */
export const ZH_WORDS = [
  '春天', '故事', '城市', '夜晚', '海洋', '记忆', '时间', '山川', '河流', '星空', '远方', '少年', '世界', '梦想', '旅行',
  '秘密', '花园', '月光', '风雪', '雨季', '森林', '灯火', '归途', '家园', '江湖', '长安', '书信', '黎明', '黄昏', '沙漠',
  '岛屿', '草原', '铁路', '列车', '咖啡', '音乐', '画家', '诗人', '侦探', '厨房', '医生', '学校', '老街', '小镇', '宇宙',
  '机器', '算法', '数据', '历史', '哲学', '经济', '文明', '战争', '和平', '自由', '孤独', '温柔', '勇气', '光明', '影子',
];
export const ZH_SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '周', '吴', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '高', '罗'];
export const ZH_GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '华', '慧', '建国', '晓燕', '子涵', '雨桐'];
export const EN_WORDS = [
  'river', 'shadow', 'garden', 'silent', 'winter', 'city', 'night', 'ocean', 'memory', 'light', 'journey', 'stone', 'paper',
  'glass', 'empire', 'island', 'forest', 'storm', 'letter', 'machine', 'promise', 'secret', 'harbor', 'mountain', 'summer',
  'engine', 'signal', 'theory', 'history', 'market', 'kitchen', 'doctor', 'detective', 'painter', 'poet', 'train', 'desert',
];
export const EN_FIRST = ['Anna', 'James', 'Mary', 'John', 'Lucy', 'David', 'Emma', 'Paul', 'Sarah', 'Tom', 'Grace', 'Henry', 'Olivia', 'Leo', 'Mia'];
export const EN_LAST = ['Smith', 'Brown', 'Taylor', 'Wilson', 'Clark', 'Walker', 'Hall', 'Young', 'King', 'Wright', 'Green', 'Baker', 'Hill', 'Moore'];

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export function zhTitle(r: Random): string {
  return r.sample(ZH_WORDS, r.int(1, 3)).join(r.chance(0.3) ? '的' : '');
}

export function enTitle(r: Random): string {
  const words = r.sample(EN_WORDS, r.int(1, 3)).map(capital);
  return r.chance(0.4) ? `The ${words.join(' ')}` : words.join(' ');
}

export function zhName(r: Random): string {
  return r.pick(ZH_SURNAMES) + r.pick(ZH_GIVEN);
}

export function enName(r: Random): string {
  return `${r.pick(EN_FIRST)} ${r.pick(EN_LAST)}`;
}

/** A paragraph mixing Chinese sentences and English phrases. */
export function prose(r: Random, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) {
    out.push(r.chance(0.6) ? `${r.sample(ZH_WORDS, r.int(3, 6)).join('，')}。` : `${capital(r.sample(EN_WORDS, r.int(4, 8)).join(' '))}.`);
  }
  return out.join(' ');
}

/** A timestamp `yyyy-MM-dd HH:mm:ss` between two years. */
export function timestamp(r: Random, fromYear: number, toYear: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${r.int(fromYear, toYear)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))} ${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`;
}
