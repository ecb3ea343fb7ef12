import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  languages,
  legalEntities,
  LOYALTY_FAQ_SLUG,
  tierSlugs,
  type ApiErrorBody,
  type Faq,
  type TierList,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const getTiers = (locale: string, query = '') =>
  t.app.inject({ url: `${apiPaths.loyaltyTiers(locale)}${query}` });
const getFaq = (slug: string, query = '') => t.app.inject({ url: `${apiPaths.faq(slug)}${query}` });

type Texts = { rewards: Record<string, { benefits: Record<string, string> }> };
const textsOf = async (language: string) =>
  JSON.parse(
    await readFile(path.join(t.config.contentDir, `loyalty/texts/${language}.json`), 'utf8'),
  ) as Texts;

describe('GET tiers (public)', () => {
  it('answers without a token: tiers lowest first, German texts, cacheable', async () => {
    const res = await getTiers('de-DE', '?legalEntity=DE');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const tiers = res.json<TierList>();
    expect(tiers.map((tier) => [tier.slug, tier.threshold])).toEqual([
      ['sky-blue', 0],
      ['ocean-silver', 1000],
      ['royal-gold', 3000],
      ['sapphire-diamond', 6000],
    ]);
    expect(tiers[2]!.information.title).toEqual({ id: 'loyalty-tier-royal-gold', text: 'Royal Gold' });
    const freeMinutes = tiers[0]!.rewards.find((r) => r.slug === 'free-minutes');
    expect(freeMinutes).toMatchObject({ title: 'Freiminuten', benefitText: '5 Freiminuten pro Monat' });
  });

  it('lists at least three rewards per tier for every legal entity and language, each with the benefit of that tier', async () => {
    for (const entity of legalEntities) {
      for (const language of entity.languages) {
        const res = await getTiers(`${language}_${entity.isoCountry}`);
        expect(res.statusCode).toBe(200);
        const texts = await textsOf(language);
        res.json<TierList>().forEach((tier, index) => {
          expect(tier.rewards.length, `${tier.slug} in ${entity.isoCountry}`).toBeGreaterThanOrEqual(3);
          for (const reward of tier.rewards) {
            expect(reward.benefitText).toBe(texts.rewards[reward.slug]!.benefits[tier.information.title.id]);
            expect(tierSlugs.indexOf(reward.unlockedIn)).toBeGreaterThanOrEqual(0);
            expect(tierSlugs.indexOf(reward.unlockedIn)).toBeLessThanOrEqual(index);
          }
        });
      }
    }
  });

  it("takes the legal entity from the locale's country, else Germany", async () => {
    const slugs = async (locale: string, query = '') =>
      (await getTiers(locale, query)).json<TierList>()[0]!.rewards.map((r) => r.slug);
    // The bike partner is offered in DE but not in HU.
    expect(await slugs('hu_HU')).not.toContain('velovia-bike-rides');
    expect(await slugs('en-HU')).not.toContain('velovia-bike-rides');
    expect(await slugs('de')).toContain('velovia-bike-rides');
    expect(await slugs('hu_HU', '?legalEntity=de')).toContain('velovia-bike-rides');
    const english = (await getTiers('xx-YY')).json<TierList>();
    expect(english[0]!.rewards.find((r) => r.slug === 'free-minutes')?.title).toBe('Free minutes');
  });

  it('refuses a legal entity that is not ours with 400 naming legalEntity', async () => {
    for (const query of ['?legalEntity=SE', '?legalEntity=Germany']) {
      const res = await getTiers('de-DE', query);
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().violations?.[0]?.field).toBe('legalEntity');
    }
  });

  it('refuses a malformed locale with 400', async () => {
    const res = await getTiers('de-DE-x');
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations?.[0]?.field).toBe('locale');
    const broken = await t.app.inject({ url: '/api/core-web/content/loyalty/tier/%E0%A4%A' });
    expect(broken.statusCode).toBe(400);
  });
});

describe('content images', () => {
  it('serves every tier and reward image as an SVG that may be cached for good', async () => {
    const tiers = (await getTiers('en-DE')).json<TierList>();
    const urls = new Set(
      tiers.flatMap((tier) => [tier.information.image, ...tier.rewards.map((r) => r.image)]),
    );
    expect(urls.size).toBeGreaterThanOrEqual(14);
    for (const url of urls) {
      expect(url).toMatch(/^\/content\/loyalty\/images\/[a-z0-9-]+\.svg\?v=[0-9a-f]{12}$/);
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body).toMatch(/<title>[^<]+<\/title>/);
    }
  });

  it('answers an unknown image with 404, and never serves a file outside the image folder', async () => {
    const res = await t.app.inject({ url: '/content/loyalty/images/nope.svg' });
    expect(res.statusCode).toBe(404);
    for (const url of [
      '/content/loyalty/images/..%2Fprogramme.json',
      '/content/loyalty/images/%2e%2e/%2e%2e/translations/en.json',
      '/content/loyalty/images/../texts/en.json',
    ]) {
      const hostile = await t.app.inject({ url });
      expect(hostile.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(hostile.statusCode, url).toBeLessThan(500);
    }
  });
});

describe('GET FAQ (public)', () => {
  it('serves at least ten entries in each of the eight languages', async () => {
    const english = (await getFaq(LOYALTY_FAQ_SLUG, '?language=en')).json<Faq>();
    for (const language of languages) {
      const res = await getFaq(LOYALTY_FAQ_SLUG, `?language=${language}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const faq = res.json<Faq>();
      expect(faq).toMatchObject({ slug: LOYALTY_FAQ_SLUG, language });
      expect(faq.entries.length).toBeGreaterThanOrEqual(10);
      expect(faq.entries.map((e) => e.id)).toEqual(english.entries.map((e) => e.id));
      if (language !== 'en') expect(faq.entries[0]!.answer).not.toBe(english.entries[0]!.answer);
    }
  });

  it('takes the language of a locale and defaults to English', async () => {
    expect((await getFaq(LOYALTY_FAQ_SLUG, '?language=da_DK')).json<Faq>().language).toBe('da');
    expect((await getFaq(LOYALTY_FAQ_SLUG)).json<Faq>().language).toBe('en');
  });

  it('answers an unknown FAQ with 404', async () => {
    const res = await getFaq('no-such-faq');
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiErrorBody>().code).toBe('not_found');
  });

  it('refuses a language we do not speak, or a malformed one, with 400 naming language', async () => {
    for (const language of ['sv', 'english']) {
      const res = await getFaq(LOYALTY_FAQ_SLUG, `?language=${language}`);
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().violations?.[0]?.field).toBe('language');
    }
  });
});
