import path from 'node:path';
import {
  countryCodes,
  languages,
  LOYALTY_CORE_CONSENT,
  LOYALTY_PROCESS_ID,
  type Language,
} from '@roadpass/contracts';
import type { ContentProblems } from './content-problems.js';
import {
  ConsentDefinitionsFile,
  ConsentTextsFile,
  type ConsentDefinitionEntry,
} from './loyalty-content-files.js';

/** Consent definitions per legal entity (content/consents), checked; complete only without problems. */
export interface LoadedConsents {
  consents: ConsentDefinitionEntry[];
  texts: Record<Language, ConsentTextsFile>;
}

export async function loadConsentContent(
  contentDir: string,
  problems: ContentProblems,
): Promise<LoadedConsents> {
  const dir = path.join(contentDir, 'consents');
  const definitionsFile = path.join(dir, 'definitions.json');
  const definitions = await problems.readChecked(definitionsFile, ConsentDefinitionsFile);
  const consents = definitions?.consents ?? [];
  const report = (field: string, message: string) => problems.add(definitionsFile, field, message);

  const seen = new Set<string>();
  consents.forEach((consent, i) => {
    const at = `consents[${i}] (${consent.slug})`;
    if (seen.has(consent.slug)) report(at, 'uses a slug that is already defined');
    seen.add(consent.slug);
    for (const iso of consent.legalEntities) {
      if (!(countryCodes as readonly string[]).includes(iso))
        report(
          `${at}.legalEntities`,
          `"${iso}" is not one of our legal entities (${countryCodes.join(', ')})`,
        );
    }
    if (new Set(consent.legalEntities).size !== consent.legalEntities.length)
      report(`${at}.legalEntities`, 'lists a legal entity twice');
    if (consent.required && consent.processes.length === 0)
      report(`${at}.required`, 'only makes sense for a consent that belongs to a process');
  });

  if (definitions) {
    const core = consents.find((c) => c.slug === LOYALTY_CORE_CONSENT);
    const everywhere = countryCodes.every((iso) => core?.legalEntities.includes(iso));
    if (!core || !core.required || !core.processes.includes(LOYALTY_PROCESS_ID) || !everywhere)
      report(
        'consents',
        `must define ${LOYALTY_CORE_CONSENT}, required, in process ${LOYALTY_PROCESS_ID}, for every legal entity`,
      );
  }

  const texts = {} as Record<Language, ConsentTextsFile>;
  for (const lang of languages) {
    const file = path.join(dir, 'texts', `${lang}.json`);
    const langTexts = await problems.readChecked(file, ConsentTextsFile);
    if (!langTexts) continue;
    texts[lang] = langTexts;
    if (!definitions) continue;
    const missing = consents.filter((c) => !langTexts[c.slug]).map((c) => c.slug);
    const unknown = Object.keys(langTexts).filter((slug) => !seen.has(slug));
    if (missing.length) problems.add(file, '', `misses the texts of ${missing.join(', ')}`);
    if (unknown.length) problems.add(file, '', `has texts for undefined consents ${unknown.join(', ')}`);
  }
  return { consents, texts };
}
