import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyStatic from '@fastify/static';
import Type from 'typebox';
import {
  ApiErrorBody,
  ContentLocaleParam,
  countryCodes,
  DEFAULT_COUNTRY,
  DEFAULT_LANGUAGE,
  Faq,
  FaqQuery,
  languageOf,
  legalEntityByCountry,
  normaliseLocale,
  TierContentQuery,
  TierList,
  apiPaths,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { LOYALTY_IMAGES_PATH, type LoyaltyContent } from './loyalty-content.js';
import { requestedLanguage } from './requested-language.js';
import { routePattern } from '../../lib/route-pattern.js';

/** Content changes with a deployment; a few minutes of caching spares the server without hiding one. */
const JSON_CACHE = 'public, max-age=300';
/** Image URLs carry a content hash (?v=…), so a changed image gets a new URL and can be cached for good. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';

/** The country of a requested locale (de_AT → AT) when it is one of ours, else the default country. */
function countryOfLocale(locale: string): string {
  const country = /^[a-zA-Z]{2}[-_]([a-zA-Z]{2})$/.exec(locale)?.[1]?.toUpperCase();
  return country && (countryCodes as readonly string[]).includes(country) ? country : DEFAULT_COUNTRY;
}

/** Content calls of docs/product/api.md#calls (tiers and FAQ, public: content is not customer data) and the content images. */
export const loyaltyContentRoutes: FastifyPluginAsync<{
  content: LoyaltyContent;
  contentDir: string;
}> = async (app, { content, contentDir }) => {
  await app.register(fastifyStatic, {
    root: path.join(contentDir, 'loyalty', 'images'),
    prefix: LOYALTY_IMAGES_PATH,
    decorateReply: false,
    // Only the files present at start are served; content is checked at start, too.
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(reply) {
      reply.header('cache-control', IMAGE_CACHE);
    },
  });

  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    routePattern(apiPaths.loyaltyTiers, 'locale'),
    {
      config: { public: true },
      schema: {
        tags: ['content'],
        summary: 'Loyalty tiers with their rewards, lowest first, for a locale and legal entity',
        params: Type.Object({ locale: ContentLocaleParam }),
        querystring: TierContentQuery,
        response: { 200: TierList, 400: ApiErrorBody },
      },
    },
    async (request, reply) => {
      const language = languageOf(normaliseLocale(request.params.locale));
      const iso = request.query.legalEntity?.toUpperCase() ?? countryOfLocale(request.params.locale);
      if (!legalEntityByCountry(iso)) {
        throw ApiError.badRequest(`No legal entity "${iso}"`, [
          {
            field: 'legalEntity',
            rule: 'listMatch',
            message: `legalEntity must be one of ${countryCodes.join(', ')}`,
          },
        ]);
      }
      reply.header('cache-control', JSON_CACHE);
      return content.tiers(language, iso);
    },
  );

  api.get(
    routePattern(apiPaths.faq, 'slug'),
    {
      config: { public: true },
      schema: {
        tags: ['content'],
        summary: 'An FAQ (the loyalty programme FAQ) in one language',
        params: Type.Object({ slug: Type.String({ maxLength: 64 }) }),
        querystring: FaqQuery,
        response: { 200: Faq, 400: ApiErrorBody, 404: ApiErrorBody },
      },
    },
    async (request, reply) => {
      const language = requestedLanguage(request.query.language, DEFAULT_LANGUAGE);
      const faq = content.faq(request.params.slug, language);
      if (!faq) throw ApiError.notFound(`No FAQ "${request.params.slug}"`);
      reply.header('cache-control', JSON_CACHE);
      return faq;
    },
  );
};
