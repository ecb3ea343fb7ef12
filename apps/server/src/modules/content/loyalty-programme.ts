import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { countryCodes, languages, tierIconNames, tierSlugs, type Language } from '@roadpass/contracts';
import type { ContentProblems } from './content-problems.js';
import {
  type CompleteProgrammeTexts,
  FaqFile,
  ProgrammeFile,
  ProgrammeTextsFile,
  type ProgrammeReward,
  type ProgrammeTier,
} from './loyalty-content-files.js';

/** Fewest rewards a tier must show in every country (issue 3). */
export const MIN_REWARDS_PER_TIER = 3;
/** Fewest FAQ entries (issue 3). */
export const MIN_FAQ_ENTRIES = 10;

/** The loyalty programme as read from content/loyalty, checked; only complete when no problem was found. */
export interface LoadedProgramme {
  tiers: ProgrammeTier[];
  rewards: ProgrammeReward[];
  texts: Record<Language, CompleteProgrammeTexts>;
  faq: Record<Language, FaqFile>;
  /** Image file name → short content hash, so image URLs change whenever an image does. */
  imageVersions: Map<string, string>;
}

const list = (values: readonly string[]) => values.join(', ');

export async function loadProgramme(contentDir: string, problems: ContentProblems): Promise<LoadedProgramme> {
  const dir = path.join(contentDir, 'loyalty');
  const programmeFile = path.join(dir, 'programme.json');
  const programme = await problems.readChecked(programmeFile, ProgrammeFile);
  const tiers = programme?.tiers ?? [];
  const rewards = programme?.rewards ?? [];
  if (programme) {
    checkTiers(tiers, (field, message) => problems.add(programmeFile, field, message));
    checkRewards(tiers, rewards, (field, message) => problems.add(programmeFile, field, message));
  }

  const texts = {} as Record<Language, CompleteProgrammeTexts>;
  const faq = {} as Record<Language, FaqFile>;
  for (const lang of languages) {
    const textsFile = path.join(dir, 'texts', `${lang}.json`);
    const langTexts = await problems.readChecked(textsFile, ProgrammeTextsFile);
    if (langTexts) {
      // Complete once no problem is reported, and the loader throws on any problem.
      texts[lang] = langTexts as CompleteProgrammeTexts;
      if (programme) checkTexts(tiers, rewards, langTexts, (f, m) => problems.add(textsFile, f, m));
    }
    const faqFile = path.join(dir, 'faq', `${lang}.json`);
    const langFaq = await problems.readChecked(faqFile, FaqFile);
    if (langFaq) faq[lang] = langFaq;
  }
  checkFaq(faq, (lang, field, message) =>
    problems.add(path.join(dir, 'faq', `${lang}.json`), field, message),
  );

  const imageVersions = await checkImages(
    path.join(dir, 'images'),
    [
      ...tiers.map((t, i) => ({ field: `tiers[${i}].image`, file: t.image })),
      ...rewards.map((r, i) => ({ field: `rewards[${i}].image`, file: r.image })),
    ],
    (field, message) => problems.add(programmeFile, field, message),
  );
  return { tiers, rewards, texts, faq, imageVersions };
}

type Report = (field: string, message: string) => void;

function checkTiers(tiers: ProgrammeTier[], report: Report): void {
  tiers.forEach((tier, i) => {
    if (!(tierSlugs as readonly string[]).includes(tier.slug))
      report(`tiers[${i}].slug`, `"${tier.slug}" is not a tier (tiers: ${list(tierSlugs)})`);
    if (!(tierIconNames as readonly string[]).includes(tier.icon))
      report(`tiers[${i}].icon`, `"${tier.icon}" is not a tier icon (icons: ${list(tierIconNames)})`);
  });
  const slugs = tiers.map((t) => t.slug);
  if (slugs.join() !== tierSlugs.join())
    report('tiers', `must be ${list(tierSlugs)}, lowest first (found: ${list(slugs)})`);
  if (tiers[0] && tiers[0].threshold !== 0)
    report(
      'tiers[0].threshold',
      `must be 0: the lowest tier is where everyone starts (found ${tiers[0].threshold})`,
    );
  for (let i = 1; i < tiers.length; i += 1) {
    if (tiers[i]!.threshold <= tiers[i - 1]!.threshold)
      report(
        `tiers[${i}].threshold`,
        `${tiers[i]!.threshold} must be above ${tiers[i - 1]!.threshold} (${tiers[i - 1]!.slug}): thresholds ascend`,
      );
  }
  duplicates(tiers.map((t) => t.titleId)).forEach((id) => report('tiers', `title id "${id}" is used twice`));
}

function checkRewards(tiers: ProgrammeTier[], rewards: ProgrammeReward[], report: Report): void {
  const tierIndex = new Map(tiers.map((t, i) => [t.slug, i]));
  const tierOfTitle = new Map(tiers.map((t, i) => [t.titleId, i]));
  duplicates(rewards.map((r) => r.slug)).forEach((slug) => report('rewards', `slug "${slug}" is used twice`));

  rewards.forEach((reward, r) => {
    const at = `rewards[${r}] (${reward.slug})`;
    const unlocked = tierIndex.get(reward.unlockedIn);
    if (unlocked === undefined)
      report(
        `${at}.unlockedIn`,
        `"${reward.unlockedIn}" is not a tier (tiers: ${list(tiers.map((t) => t.slug))})`,
      );
    if (reward.partnerCode !== (reward.partnerName.trim() !== ''))
      report(
        `${at}.partnerName`,
        reward.partnerCode
          ? 'is needed for a partner-code reward'
          : 'must be empty when partnerCode is false',
      );
    for (const iso of reward.legalEntities) {
      if (!(countryCodes as readonly string[]).includes(iso))
        report(`${at}.legalEntities`, `"${iso}" is not one of our legal entities (${list(countryCodes)})`);
    }
    duplicates(reward.legalEntities).forEach((iso) => report(`${at}.legalEntities`, `lists ${iso} twice`));

    const benefitTiers = new Set<number>();
    reward.benefits.forEach((benefit, b) => {
      const tier = tierOfTitle.get(benefit.titleId);
      if (tier === undefined) {
        report(`${at}.benefits[${b}].titleId`, `"${benefit.titleId}" is not the title id of a tier`);
        return;
      }
      if (benefitTiers.has(tier))
        report(`${at}.benefits[${b}].titleId`, `"${benefit.titleId}" has two benefits`);
      benefitTiers.add(tier);
      if (unlocked !== undefined && tier < unlocked)
        report(
          `${at}.benefits[${b}]`,
          `is for ${tiers[tier]!.slug}, below the tier the reward is unlocked in (${reward.unlockedIn})`,
        );
    });
    if (unlocked === undefined) return;
    const atUnlock = reward.benefits.find((b) => b.titleId === tiers[unlocked]!.titleId);
    if (!atUnlock?.showOnCard)
      report(
        `${at}.benefits`,
        `needs a benefit with showOnCard for ${reward.unlockedIn}, the tier it is unlocked in`,
      );
    // A reward unlocked in a tier stays available in every higher tier: each needs its benefit.
    for (let tier = unlocked + 1; tier < tiers.length; tier += 1) {
      if (!benefitTiers.has(tier))
        report(
          `${at}.benefits`,
          `misses a benefit for ${tiers[tier]!.slug} (unlocked in ${reward.unlockedIn})`,
        );
    }
  });

  for (const iso of countryCodes) {
    for (const tier of tiers) {
      const shown = rewards.filter(
        (r) =>
          r.legalEntities.includes(iso) && r.benefits.some((b) => b.titleId === tier.titleId && b.showOnCard),
      );
      if (shown.length < MIN_REWARDS_PER_TIER)
        report(
          'rewards',
          `${tier.slug} shows ${shown.length} reward${shown.length === 1 ? '' : 's'} in ${iso}; every tier needs at least ${MIN_REWARDS_PER_TIER} in every country`,
        );
    }
  }
}

function checkTexts(
  tiers: ProgrammeTier[],
  rewards: ProgrammeReward[],
  texts: ProgrammeTextsFile,
  report: Report,
): void {
  compareKeys(
    'tiers',
    tiers.map((t) => t.slug),
    Object.keys(texts.tiers),
    report,
  );
  compareKeys(
    'rewards',
    rewards.map((r) => r.slug),
    Object.keys(texts.rewards),
    report,
  );
  for (const tier of tiers) {
    const tierTexts = texts.tiers[tier.slug];
    if (!tierTexts) continue;
    for (const field of ['title', 'text'] as const)
      if (tierTexts[field] === undefined) report(`tiers.${tier.slug}.${field}`, 'is missing');
  }
  for (const reward of rewards) {
    const rewardTexts = texts.rewards[reward.slug];
    if (!rewardTexts) continue;
    for (const field of ['title', 'description', 'howTo'] as const)
      if (rewardTexts[field] === undefined) report(`rewards.${reward.slug}.${field}`, 'is missing');
    compareKeys(
      `rewards.${reward.slug}.benefits`,
      reward.benefits.map((b) => b.titleId),
      Object.keys(rewardTexts.benefits ?? {}),
      report,
    );
  }
}

function checkFaq(
  faq: Partial<Record<Language, FaqFile>>,
  report: (lang: Language, field: string, message: string) => void,
): void {
  const englishIds = faq.en?.entries.map((e) => e.id);
  for (const lang of languages) {
    const entries = faq[lang]?.entries;
    if (!entries) continue;
    if (entries.length < MIN_FAQ_ENTRIES)
      report(lang, 'entries', `has ${entries.length} entries; the FAQ needs at least ${MIN_FAQ_ENTRIES}`);
    duplicates(entries.map((e) => e.id)).forEach((id) => report(lang, 'entries', `id "${id}" is used twice`));
    if (englishIds && lang !== 'en' && entries.map((e) => e.id).join() !== englishIds.join())
      report(lang, 'entries', `must have the ids of faq/en.json in the same order (${list(englishIds)})`);
  }
}

async function checkImages(
  dir: string,
  images: { field: string; file: string }[],
  report: Report,
): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  for (const { field, file } of images) {
    if (versions.has(file)) continue;
    let svg: string;
    try {
      svg = await readFile(path.join(dir, file), 'utf8');
    } catch {
      report(field, `"${file}" is not in loyalty/images/`);
      continue;
    }
    if (!/<svg[\s>]/.test(svg) || !/<title>[^<]*\S[^<]*<\/title>/.test(svg)) {
      report(field, `"${file}" must be an SVG image with a <title>`);
      continue;
    }
    versions.set(file, createHash('sha256').update(svg).digest('hex').slice(0, 12));
  }
  return versions;
}

function compareKeys(field: string, expected: string[], found: string[], report: Report): void {
  const missing = expected.filter((key) => !found.includes(key));
  const unknown = found.filter((key) => !expected.includes(key));
  if (missing.length) report(field, `misses ${list(missing)}`);
  if (unknown.length) report(field, `has unknown ${list(unknown)}`);
}

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((value, i) => values.indexOf(value) !== i))];
}
