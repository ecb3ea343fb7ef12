import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages, type Language } from '@roadpass/contracts';

/*
 * One tone of address per language (content/TRANSLATING.md): de du, nl je/jij, fr vous, it tu, es tú,
 * hu te (tegező), da du, en you. This walks every `{lang}.json` under content/ (app, e-mails, SMS,
 * server messages, sign-in page, consents, loyalty texts and FAQ, and any folder added later) and
 * flags the words of the other form. The patterns are deliberately simple: a word list per language,
 * with sentence position where a capital letter is what tells "Sie" (you) from "sie" (they).
 */

const contentDir = path.resolve(import.meta.dirname, '../../../../../content');

interface Context {
  /** The word opens a sentence (start of text or line, or after . ! ? : …), where capitals say nothing. */
  readonly atSentenceStart: boolean;
  /** The word after the match, lower-cased ('' at the end). */
  readonly nextWord: string;
  /** The word before the match, lower-cased ('' at the start). */
  readonly previousWord: string;
}

interface Rule {
  /** What the matched word is, printed with every finding. */
  readonly name: string;
  readonly pattern: RegExp;
  /** When a match is not the other form after all. */
  readonly innocent?: (context: Context) => boolean;
}

/** A whole word (letters, digits and hyphens count as inside a word), as a global Unicode pattern. */
const words = (alternatives: string, flags = '') =>
  new RegExp(`(?<![\\p{L}\\p{N}-])(?:${alternatives})(?![\\p{L}\\p{N}-])`, `gu${flags}`);

// German "Sie ist bis 12:00 gültig" is the PIN (she/it): a singular verb. The polite "Sie" takes the
// plural ("Sie sind", "Sie haben"), which "they" shares, so that one is flagged and left to the allow-list.
const germanSingularVerb = (word: string) =>
  /t$/u.test(word) || /^(?:wird|kann|muss|darf|soll|will|mag|weiß|war)$/u.test(word);

const danishVerbOfAddress =
  /^(?:kan|kunne|skal|skulle|har|havde|er|var|må|vil|ville|bedes|bør|får|fik|modtager|bliver|behøver)$/u;

const rules: Readonly<Record<Language, readonly Rule[]>> = {
  de: [
    {
      name: 'Sie/Ihnen/Ihr (formal address; we say du)',
      pattern: words('Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres'),
      innocent: ({ atSentenceStart, nextWord }) => atSentenceStart && germanSingularVerb(nextWord),
    },
    {
      name: 'capitalised du/dein inside a sentence (we write du lower case)',
      pattern: words('Du|Dich|Dir|Dein|Deine|Deinen|Deinem|Deiner|Deines'),
      innocent: ({ atSentenceStart }) => atSentenceStart,
    },
  ],
  nl: [{ name: 'u/uw (formal address; we say je/jij/jouw)', pattern: words('u|uw|uwe|uzelf', 'i') }],
  fr: [
    {
      name: 'tu/ton/ta/tes (informal address; we say vous)',
      pattern: words('tu|toi|te|ton|ta|tes|tien|tienne|tiens', 'i'),
    },
    { name: "t' (informal address; we say vous)", pattern: /(?<![\p{L}\p{N}-])t['’](?=\p{L})/giu },
  ],
  it: [
    { name: 'Lei/Suo/Sua (formal address; we say tu)', pattern: words('Lei|Suo|Sua|Suoi|Sue') },
    {
      name: 'La/Le/Gli as a capitalised pronoun inside a sentence (formal address; we say tu)',
      pattern: words('La|Le|Gli'),
      innocent: ({ atSentenceStart }) => atSentenceStart,
    },
    {
      name: 'La preghiamo/Le chiediamo (formal address; we say tu)',
      pattern: words(
        '(?:la|le) (?:preghiamo|invitiamo|chiediamo|ricordiamo|ringraziamo|informiamo|consigliamo)',
        'i',
      ),
    },
    {
      name: 'formal imperative (we say tu: inserisci, scegli, attendi …)',
      pattern: words(
        'inserisca|scelga|attenda|richieda|acceda|apra|chiuda|legga|prema|scriva|segua|prosegua',
        'i',
      ),
      // The same form is the tu subjunctive: "qualunque cosa tu scelga".
      innocent: ({ previousWord }) => previousWord === 'tu',
    },
  ],
  es: [
    { name: 'usted (formal address; we say tú)', pattern: words('usted|ustedes|ud|uds|vd|vds', 'i') },
    {
      name: 'formal imperative (we say tú: introduce, inténtalo, comprueba …)',
      pattern: words(
        'introduzca|introdúzcalo|inténtelo|vuelva|compruebe|póngase|pulse|haga|seleccione|utilice|elija|escriba|confirme|revise|rellene|acceda|indique|solicite',
        'i',
      ),
      // The same form is the subjunctive of a third person: "pide a la app que vuelva a iniciar tu sesión".
      innocent: ({ previousWord }) => previousWord === 'que',
    },
    {
      name: 'su/sus for the reader’s things (formal address; we say tu/tus)',
      pattern: words(
        'sus? (?:cuenta|contraseña|correo|dirección|número|móvil|perfil|sesión|datos|puntos|nivel|idioma|pin)',
        'i',
      ),
    },
  ],
  hu: [
    {
      name: 'Ön (formal address; we say te)',
      pattern: words(
        'Ön|Önt|Önnek|Önök|Önöket|Önöknek|Öné|Önnel|Öntől|Önhöz|Önre|Önről|Önben|Önért|Önnél|Önbe|Önből',
      ),
    },
    {
      name: 'kérjük/kérem (formal register; in tegező the imperative stands alone)',
      pattern: words('kérjük|kérem(?=,)', 'i'),
    },
    {
      name: 'formal imperative (we say te: add meg, kattints, próbáld …)',
      pattern: words(
        'adja meg|adjon|kattintson|koppintson|ellenőrizze|próbálja (?:újra|meg)|válasszon|válassza ki|használjon|kérjen|várjon|forduljon|erősítse meg|nyissa meg|hagyja|iratkozzon|írja be|lépjen|jelentkezzen|töltse ki|fogadja el|olvassa el|zárja be|kapcsolja (?:be|ki)|módosítsa|mentse el|tekintse meg|győződjön|legyen szíves',
        'i',
      ),
    },
    {
      name: 'formal possessive of the reader’s things (we say fiókod, jelszavad …)',
      pattern: words(
        'fiókja|fiókját|fiókjában|fiókjába|fiókjából|fiókjához|jelszavát|mobilszámát|e-mail-címét',
      ),
    },
  ],
  da: [
    {
      name: 'De/Dem/Deres (formal address; we say du/dig/din)',
      pattern: words('De|Dem|Deres'),
      innocent: ({ atSentenceStart, nextWord }) => atSentenceStart && !danishVerbOfAddress.test(nextWord),
    },
  ],
  // English has one "you".
  en: [],
};

/**
 * Words that match a rule but are not the other form, each with its reason. Keyed by file, key and
 * word so an entry never hides another text; an entry that no longer matches anything fails the test.
 */
const allowed: readonly { file: string; key: string; word: string; reason: string }[] = [];

interface Finding {
  readonly file: string;
  readonly key: string;
  readonly word: string;
  readonly rule: string;
  readonly excerpt: string;
}

function startsSentence(before: string): boolean {
  const rest = before.replace(/[\s"'„“”«»‚‘’(¿¡]+$/u, '');
  return rest === '' || /[.!?:…]$/u.test(rest) || /\n\s*$/u.test(before);
}

function otherForms(language: Language, text: string): { word: string; rule: string; excerpt: string }[] {
  const found: { word: string; rule: string; excerpt: string }[] = [];
  for (const rule of rules[language]) {
    for (const match of text.matchAll(rule.pattern)) {
      const before = text.slice(0, match.index);
      const after = text.slice(match.index + match[0].length);
      const context: Context = {
        atSentenceStart: startsSentence(before),
        nextWord: (/^\s+(\p{L}+)/u.exec(after)?.[1] ?? '').toLowerCase(),
        previousWord: (/(\p{L}+)\s+$/u.exec(before)?.[1] ?? '').toLowerCase(),
      };
      if (rule.innocent?.(context)) continue;
      const excerpt = text.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30);
      found.push({ word: match[0], rule: rule.name, excerpt: excerpt.replace(/\n/g, '\\n') });
    }
  }
  return found;
}

/** Every string of a JSON value with its key path (entries[3].answer, tiers.sky-blue.text …). */
function* strings(value: unknown, key = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [key, value];
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* strings(item, `${key}[${i}]`);
  else if (value && typeof value === 'object')
    for (const [name, item] of Object.entries(value)) yield* strings(item, key ? `${key}.${name}` : name);
}

async function textFiles(language: Language): Promise<string[]> {
  const entries = await readdir(contentDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name === `${language}.json`)
    .map((entry) => path.relative(contentDir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('one tone of address per language in every text file of content/', () => {
  it.each([...languages])('%s texts use only the chosen form', async (language) => {
    const files = await textFiles(language);
    expect(files).toContain(`translations/${language}.json`);
    const findings: Finding[] = [];
    for (const file of files) {
      const json: unknown = JSON.parse(await readFile(path.join(contentDir, file), 'utf8'));
      for (const [key, text] of strings(json))
        for (const found of otherForms(language, text)) findings.push({ file, key, ...found });
    }
    const isAllowed = (f: Finding) =>
      allowed.some((a) => a.file === f.file && a.key === f.key && a.word === f.word);
    const report = findings
      .filter((f) => !isAllowed(f))
      .map((f) => `content/${f.file} › ${f.key}: "${f.word}" (${f.rule}) in "…${f.excerpt}…"`);
    expect(report, 'texts in the other form of address').toEqual([]);
    const stale = allowed.filter(
      (a) =>
        a.file.endsWith(`${language}.json`) &&
        !findings.some((f) => f.file === a.file && f.key === a.key && f.word === a.word),
    );
    expect(stale, 'allow-list entries that match nothing any more').toEqual([]);
  });
});

describe('the patterns of the other form', () => {
  const flagged = (language: Language, text: string) => otherForms(language, text).map((f) => f.word);

  it('German: the polite Sie, Ihnen and Ihr anywhere, du capitalised inside a sentence', () => {
    expect(flagged('de', 'Bitte geben Sie Ihre E-Mail-Adresse ein.')).toEqual(['Sie', 'Ihre']);
    expect(flagged('de', 'Sie haben zu viele PINs angefordert.')).toEqual(['Sie']);
    expect(flagged('de', 'Ihre Sprache wurde gespeichert')).toEqual(['Ihre']);
    expect(flagged('de', 'Wir senden Ihnen eine PIN.')).toEqual(['Ihnen']);
    expect(flagged('de', 'Hallo Anna,\n\nbitte bestätige Deine neue Adresse.')).toEqual(['Deine']);
    // The PIN ("sie", it) at a sentence start, and du at a sentence start or after a colon.
    expect(flagged('de', 'Wir haben eine PIN gesendet. Sie ist bis 12:00 gültig.')).toEqual([]);
    expect(
      flagged('de', 'Zu viele falsche PINs: Sie gilt nicht mehr. Du kannst eine neue anfordern.'),
    ).toEqual([]);
    expect(flagged('de', 'Tritt dem Programm bei: Deine Punkte beginnen mit deiner nächsten Fahrt.')).toEqual(
      [],
    );
  });

  it('Dutch: u and uw, not words that only contain them', () => {
    expect(flagged('nl', 'U kunt uw keuze altijd wijzigen.')).toEqual(['U', 'uw']);
    expect(flagged('nl', 'Heeft u hier niet om gevraagd?')).toEqual(['u']);
    expect(flagged('nl', 'Je kunt je keuze altijd wijzigen, ook in de U-bocht van uwerzijds.')).toEqual([]);
  });

  it('French: tu, ton, ta, tes, te and t’', () => {
    expect(flagged('fr', 'Tu peux modifier ton choix et tes préférences.')).toEqual(['Tu', 'ton', 'tes']);
    expect(flagged('fr', 'Une récompense t’attend.')).toEqual(['t’']);
    expect(flagged('fr', 'Vous pouvez modifier votre choix. Peut-être plus tard ? Contactez-nous.')).toEqual(
      [],
    );
  });

  it('Italian: Lei, Suo, La/Le inside a sentence, formal imperatives', () => {
    expect(flagged('it', 'La preghiamo di inserire il Suo numero.')).toEqual(['Suo', 'La preghiamo']);
    expect(flagged('it', 'Inserisca il PIN. Poi Le inviamo un codice.')).toEqual(['Le', 'Inserisca']);
    expect(flagged('it', 'La tua sessione è scaduta. Le tue scelte sono salvate. Inserisci il PIN.')).toEqual(
      [],
    );
    expect(flagged('it', 'Restano disattivate qualunque cosa tu scelga.')).toEqual([]);
  });

  it('Spanish: usted, formal imperatives and su for the reader’s account', () => {
    expect(flagged('es', 'Introduzca su contraseña, por favor.')).toEqual(['Introduzca', 'su contraseña']);
    expect(flagged('es', 'Usted puede cambiarlo. Inténtelo de nuevo.')).toEqual(['Usted', 'Inténtelo']);
    expect(
      flagged('es', 'Introduce tu contraseña. Cuando un amigo completa su primer viaje, recibes puntos.'),
    ).toEqual([]);
    expect(flagged('es', 'Pide a la app que vuelva a iniciar tu sesión.')).toEqual([]);
  });

  it('Hungarian: Ön, kérjük and the formal imperatives and possessives', () => {
    expect(flagged('hu', 'Ha nem Ön kérte, hagyja figyelmen kívül.')).toEqual(['Ön', 'hagyja']);
    expect(flagged('hu', 'Kérjük, adja meg mobilszámát.')).toEqual(['Kérjük', 'adja meg', 'mobilszámát']);
    expect(flagged('hu', 'Túl sok PIN-kódot kért. Próbálja újra később.')).toEqual(['Próbálja újra']);
    expect(flagged('hu', 'Add meg a mobilszámodat. Önkéntes, és bármikor kiléphetsz. Próbáld újra.')).toEqual(
      [],
    );
  });

  it('Danish: De, Dem and Deres as address, not "de" (they, the) at a sentence start', () => {
    expect(flagged('da', 'Nu kan De ændre Deres valg.')).toEqual(['De', 'Deres']);
    expect(flagged('da', 'De kan til enhver tid afmelde Dem.')).toEqual(['De', 'Dem']);
    expect(flagged('da', 'De fleste belønninger findes overalt. Du kan ændre dit valg.')).toEqual([]);
  });
});
