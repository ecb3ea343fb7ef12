import { cp, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countryCodes,
  languages,
  legalEntities,
  LOYALTY_CORE_CONSENT,
  LOYALTY_FAQ_SLUG,
  LOYALTY_PROCESS_ID,
  tierSlugs,
  type Language,
} from '@roadpass/contracts';
import { loadLoyaltyContent } from './loyalty-content.js';

const contentDir = path.resolve(import.meta.dirname, '../../../../../content');
const readJson = async <T = Record<string, unknown>>(file: string): Promise<T> =>
  JSON.parse(await readFile(file, 'utf8')) as T;

describe('the real content', () => {
  it('loads, with the thresholds of the content', async () => {
    const content = await loadLoyaltyContent(contentDir);
    expect(content.tierRules).toEqual([
      { slug: 'sky-blue', threshold: 0 },
      { slug: 'ocean-silver', threshold: 1000 },
      { slug: 'royal-gold', threshold: 3000 },
      { slug: 'sapphire-diamond', threshold: 6000 },
    ]);
  });

  it('shows at least three rewards per tier in every country and language, each unlocked at or below it', async () => {
    const content = await loadLoyaltyContent(contentDir);
    for (const language of languages) {
      for (const iso of countryCodes) {
        const tiers = content.tiers(language, iso);
        expect(tiers.map((t) => t.slug)).toEqual([...tierSlugs]);
        tiers.forEach((tier, index) => {
          expect(tier.rewards.length, `${tier.slug} in ${iso}/${language}`).toBeGreaterThanOrEqual(3);
          for (const reward of tier.rewards) {
            expect(tierSlugs.indexOf(reward.unlockedIn)).toBeLessThanOrEqual(index);
            expect(reward.benefitText.trim()).not.toBe('');
            expect(content.rewardRule(reward.slug, iso)?.unlockedIn).toBe(reward.unlockedIn);
          }
        });
      }
    }
  });

  it('has partner-code rewards unlocked in sky blue, royal gold and only in sapphire diamond', async () => {
    const content = await loadLoyaltyContent(contentDir);
    const rewards = content.tiers('en', 'DE').flatMap((t) => t.rewards);
    const partner = [...new Map(rewards.filter((r) => r.partnerCode).map((r) => [r.slug, r])).values()];
    expect(partner.length).toBeGreaterThanOrEqual(4);
    expect(partner.every((r) => r.partnerName !== '')).toBe(true);
    expect(partner.map((r) => r.unlockedIn)).toEqual(
      expect.arrayContaining(['sky-blue', 'royal-gold', 'sapphire-diamond']),
    );
    const all = new Set(rewards.map((r) => r.slug));
    expect(all.size).toBeGreaterThanOrEqual(10);
  });

  it('offers some rewards only in some countries', async () => {
    const content = await loadLoyaltyContent(contentDir);
    expect(content.rewardRule('voltpoint-charging', 'DE')?.legalEntities).toContain('DE');
    expect(content.rewardRule('voltpoint-charging', 'HU')).toBeUndefined();
    const huSlugs = content.tiers('hu', 'HU').flatMap((t) => t.rewards.map((r) => r.slug));
    expect(huSlugs).not.toContain('voltpoint-charging');
  });

  it('has every text in all eight languages, translated rather than copied from English', async () => {
    const english = await readJson<{ tiers: object; rewards: object }>(
      path.join(contentDir, 'loyalty/texts/en.json'),
    );
    const content = await loadLoyaltyContent(contentDir);
    const textsOf = (language: Language) =>
      content
        .tiers(language, 'DE')
        .flatMap((tier) => [
          tier.information.text,
          ...tier.rewards.flatMap((r) => [r.title, r.benefitText, r.description, r.howTo]),
        ]);
    const inEnglish = textsOf('en');
    expect(Object.keys(english.rewards).length).toBeGreaterThanOrEqual(10);
    for (const language of languages.filter((l) => l !== 'en')) {
      const texts = textsOf(language);
      expect(texts).toHaveLength(inEnglish.length);
      const copied = texts.filter((text, i) => text === inEnglish[i]);
      expect(copied, language).toEqual([]);
    }
  });

  it('has an FAQ of at least ten entries in every language, with the same ids', async () => {
    const content = await loadLoyaltyContent(contentDir);
    const english = content.faq(LOYALTY_FAQ_SLUG, 'en')!;
    expect(english.entries.length).toBeGreaterThanOrEqual(10);
    for (const language of languages) {
      const faq = content.faq(LOYALTY_FAQ_SLUG, language)!;
      expect(faq).toMatchObject({ slug: LOYALTY_FAQ_SLUG, language });
      expect(faq.entries.map((e) => e.id)).toEqual(english.entries.map((e) => e.id));
      if (language !== 'en') expect(faq.entries[0]!.question).not.toBe(english.entries[0]!.question);
    }
    expect(content.faq('another-faq', 'en')).toBeUndefined();
  });

  it('defines the core loyalty consent in every legal entity, with texts in every language', async () => {
    const content = await loadLoyaltyContent(contentDir);
    for (const entity of legalEntities) {
      for (const language of languages) {
        const definitions = content.consentDefinitions(entity.legalEntityId, language);
        expect(definitions.find((d) => d.slug === LOYALTY_CORE_CONSENT)).toMatchObject({
          required: true,
          processes: [LOYALTY_PROCESS_ID],
          language,
        });
        for (const d of definitions) expect(d.title && d.description).toBeTruthy();
      }
    }
    expect(content.consentDefinitions(99, 'en')).toEqual([]);
    expect(content.consentSets).toContain('editable-by-customer');
    expect(content.consentProcesses).toContain(LOYALTY_PROCESS_ID);
  });

  it('keeps every image a small SVG with a title', async () => {
    const programme = await readJson<{ tiers: { image: string }[]; rewards: { image: string }[] }>(
      path.join(contentDir, 'loyalty/programme.json'),
    );
    const images = [...programme.tiers, ...programme.rewards].map((entry) => entry.image);
    expect(images.length).toBe(programme.tiers.length + programme.rewards.length);
    for (const image of images) {
      const file = path.join(contentDir, 'loyalty/images', image);
      expect((await stat(file)).size, image).toBeLessThan(2048);
      expect(await readFile(file, 'utf8')).toMatch(
        /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<title>/,
      );
    }
  });

  it('answers from frozen data, so no caller can change what the next one gets', async () => {
    const content = await loadLoyaltyContent(contentDir);
    const tiers = content.tiers('en', 'DE');
    expect(Object.isFrozen(tiers[0]!.rewards[0])).toBe(true);
    expect(content.tiers('en', 'de')).toBe(tiers);
  });
});

describe('broken content fails with one message naming every problem', () => {
  const copies: string[] = [];
  afterAll(() => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

  /** A copy of the real content, changed by `edit`; returns the loader's error message. */
  async function problemsAfter(edit: (dir: string) => Promise<void>): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'loyalty-content-'));
    copies.push(dir);
    await cp(path.join(contentDir, 'loyalty'), path.join(dir, 'loyalty'), { recursive: true });
    await cp(path.join(contentDir, 'consents'), path.join(dir, 'consents'), { recursive: true });
    await edit(dir);
    const error = await loadLoyaltyContent(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }

  async function editJson<T>(file: string, change: (value: T) => void): Promise<void> {
    const value = await readJson<T>(file);
    change(value);
    await writeFile(file, JSON.stringify(value, null, 2));
  }

  type Programme = {
    tiers: { slug: string; threshold: number; image: string }[];
    rewards: {
      slug: string;
      unlockedIn: string;
      legalEntities: string[];
      partnerCode: boolean;
      partnerName: string;
      benefits: { titleId: string; showOnCard: boolean }[];
    }[];
  };
  const programme = (dir: string) => path.join(dir, 'loyalty/programme.json');
  type Texts = { rewards: Record<string, { title?: string; benefits: Record<string, string> }> };

  it('a reward text missing in Hungarian', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Texts>(path.join(dir, 'loyalty/texts/hu.json'), (texts) => {
        delete texts.rewards['free-minutes']!.title;
        delete texts.rewards['birthday-bonus']!.benefits['loyalty-tier-royal-gold'];
      }),
    );
    expect(message).toMatch(/^Invalid loyalty content in .*\(2 problems\):/);
    expect(message).toContain('loyalty/texts/hu.json: rewards.free-minutes.title is missing');
    expect(message).toContain(
      'loyalty/texts/hu.json: rewards.birthday-bonus.benefits misses loyalty-tier-royal-gold',
    );
  });

  it('an unknown tier in unlockedIn, and a reward whose unlock tier has no benefit', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Programme>(programme(dir), (p) => {
        p.rewards[0]!.unlockedIn = 'platinum';
        p.rewards[1]!.unlockedIn = 'ocean-silver';
        p.rewards[1]!.benefits = p.rewards[1]!.benefits.filter(
          (b) => b.titleId !== 'loyalty-tier-ocean-silver',
        );
      }),
    );
    expect(message).toContain('rewards[0] (free-minutes).unlockedIn "platinum" is not a tier');
    expect(message).toContain(
      'rewards[1] (birthday-bonus).benefits needs a benefit with showOnCard for ocean-silver, the tier it is unlocked in',
    );
    expect(message).toContain('rewards[1] (birthday-bonus).benefits[0] is for sky-blue, below the tier');
  });

  it('thresholds that do not start at 0 or do not ascend', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Programme>(programme(dir), (p) => {
        p.tiers[0]!.threshold = 10;
        p.tiers[2]!.threshold = 900;
      }),
    );
    expect(message).toContain('loyalty/programme.json: tiers[0].threshold must be 0');
    expect(message).toContain('tiers[2].threshold 900 must be above 1000 (ocean-silver)');
  });

  it('an unknown tier slug and tiers in the wrong order', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Programme>(programme(dir), (p) => {
        p.tiers[1]!.slug = 'silver';
      }),
    );
    expect(message).toContain('tiers[1].slug "silver" is not a tier');
    expect(message).toMatch(
      /tiers must be sky-blue, ocean-silver, royal-gold, sapphire-diamond, lowest first/,
    );
  });

  it('fewer than three rewards for a tier in a country', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Programme>(programme(dir), (p) => {
        const birthday = p.rewards.find((r) => r.slug === 'birthday-bonus')!;
        birthday.legalEntities = birthday.legalEntities.filter((iso) => iso !== 'HU');
      }),
    );
    expect(message).toContain(
      'rewards sky-blue shows 2 rewards in HU; every tier needs at least 3 in every country',
    );
    expect(message).not.toContain('in DE');
  });

  it('an unknown legal entity and a partner reward without a partner', async () => {
    const message = await problemsAfter((dir) =>
      editJson<Programme>(programme(dir), (p) => {
        p.rewards[0]!.legalEntities.push('SE');
        p.rewards[0]!.partnerCode = true;
      }),
    );
    expect(message).toContain(
      'rewards[0] (free-minutes).legalEntities "SE" is not one of our legal entities',
    );
    expect(message).toContain('rewards[0] (free-minutes).partnerName is needed for a partner-code reward');
  });

  it('an FAQ with too few entries, or other ids than in English', async () => {
    type FaqFile = { entries: { id: string }[] };
    const message = await problemsAfter(async (dir) => {
      await editJson<FaqFile>(path.join(dir, 'loyalty/faq/da.json'), (faq) => {
        faq.entries = faq.entries.slice(0, 9);
      });
      await editJson<FaqFile>(path.join(dir, 'loyalty/faq/it.json'), (faq) => {
        faq.entries[3]!.id = 'something-else';
      });
    });
    expect(message).toContain('loyalty/faq/da.json: entries has 9 entries; the FAQ needs at least 10');
    expect(message).toContain(
      'loyalty/faq/it.json: entries must have the ids of faq/en.json in the same order',
    );
  });

  it('a missing image and an image without a title', async () => {
    const message = await problemsAfter(async (dir) => {
      await unlink(path.join(dir, 'loyalty/images/reward-free-upgrade.svg'));
      await writeFile(
        path.join(dir, 'loyalty/images/tier-royal-gold.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"/>',
      );
    });
    expect(message).toMatch(/rewards\[\d+\]\.image "reward-free-upgrade\.svg" is not in loyalty\/images\//);
    expect(message).toContain('tiers[2].image "tier-royal-gold.svg" must be an SVG image with a <title>');
  });

  it('a consent definition without texts, and no core consent', async () => {
    type Definitions = { consents: { slug: string; legalEntities: string[] }[] };
    const message = await problemsAfter(async (dir) => {
      await editJson<Definitions>(path.join(dir, 'consents/definitions.json'), (d) => {
        d.consents.push({ ...d.consents[1]!, slug: 'new-consent-X1' });
        d.consents[0]!.legalEntities = ['DE'];
      });
    });
    for (const language of languages)
      expect(message).toContain(`consents/texts/${language}.json: misses the texts of new-consent-X1`);
    expect(message).toContain(
      `must define ${LOYALTY_CORE_CONSENT}, required, in process ${LOYALTY_PROCESS_ID}`,
    );
  });

  it('files that are missing, not JSON or of the wrong shape', async () => {
    const message = await problemsAfter(async (dir) => {
      await unlink(path.join(dir, 'loyalty/texts/nl.json'));
      await writeFile(path.join(dir, 'loyalty/faq/fr.json'), '{ "entries": [');
      await editJson<Programme & { extra?: boolean }>(programme(dir), (p) => {
        p.extra = true;
        p.tiers[3]!.threshold = -5;
      });
    });
    expect(message).toContain('loyalty/texts/nl.json: cannot be read (ENOENT)');
    expect(message).toContain('loyalty/faq/fr.json: is not valid JSON');
    expect(message).toContain('loyalty/programme.json: extra is not an accepted field');
    expect(message).toContain('loyalty/programme.json: tiers[3].threshold must be >= 0');
  });
});
