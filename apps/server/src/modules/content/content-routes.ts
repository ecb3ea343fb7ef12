import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  CONTENT_COLLECTION_LOYALTY,
  ContentCollection,
  ContentCollectionQuery,
  ContentLocaleParam,
  languageOf,
  normaliseLocale,
  apiPaths,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import type { TranslationSet } from './translations.js';
import { routePattern } from '../../lib/route-pattern.js';

const collections = new Set([CONTENT_COLLECTION_LOYALTY]);

/** Public content calls of docs/product/api.md#calls (content is not customer data, so no token is needed). */
export const contentRoutes: FastifyPluginAsync<{ translations: TranslationSet }> = async (
  app,
  { translations },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    routePattern(apiPaths.contentCollection, 'locale', 'collection'),
    {
      config: { public: true },
      schema: {
        tags: ['content'],
        summary: 'Translation texts of a content collection for a locale',
        params: Type.Object({ locale: ContentLocaleParam, collection: Type.String({ maxLength: 64 }) }),
        querystring: ContentCollectionQuery,
        response: { 200: ContentCollection },
      },
    },
    async (request, reply) => {
      const { collection } = request.params;
      if (!collections.has(collection)) throw ApiError.notFound(`No content collection "${collection}"`);
      const locale = normaliseLocale(request.params.locale);
      const language = languageOf(locale);
      reply.header('cache-control', 'public, max-age=300');
      return { collection, locale, language, texts: translations[language] };
    },
  );
};
