import { BannedWords } from '@plaza/contracts';
import { readFileSync } from 'node:fs';
import { ConfigError } from './load-config';
import { BaseConfig } from './service-config';

/**
 * Loads `BANNED_WORDS_FILE` into the DTO check (one word or phrase per line, `#` starts a
 * comment). A configured file that cannot be read fails the start, like any wrong setting.
 * Returns how many words are in force.
 */
export function loadBannedWords(config: Pick<BaseConfig, 'BANNED_WORDS_FILE'>): number {
  if (!config.BANNED_WORDS_FILE) {
    BannedWords.use([]);
    return 0;
  }
  let text: string;
  try {
    text = readFileSync(config.BANNED_WORDS_FILE, 'utf8');
  } catch (err) {
    throw new ConfigError([`BANNED_WORDS_FILE cannot be read: ${(err as Error).message}`]);
  }
  BannedWords.use(text.split(/\r?\n/).map((line) => line.replace(/#.*$/, '')));
  return BannedWords.words.length;
}
