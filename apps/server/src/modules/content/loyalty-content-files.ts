import Type from 'typebox';
import { ConsentSlug, RewardSlug } from '@roadpass/contracts';

/**
 * The shape of the versioned content files under content/loyalty and content/consents (see
 * content/loyalty/README.md). Slugs that refer to other entries are plain strings here: the
 * cross-checks name an unknown one better than a schema error would.
 */

const Id = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' });
const Text = Type.String({ minLength: 1, pattern: '\\S' });
const ImageFile = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*\\.svg$' });
const Countries = Type.Array(Type.String(), { minItems: 1 });
const closed = { additionalProperties: false } as const;

export const ProgrammeFile = Type.Object(
  {
    tiers: Type.Array(
      Type.Object(
        {
          slug: Type.String(),
          threshold: Type.Integer({ minimum: 0 }),
          titleId: Id,
          image: ImageFile,
          icon: Type.String(),
        },
        closed,
      ),
      { minItems: 1 },
    ),
    rewards: Type.Array(
      Type.Object(
        {
          slug: RewardSlug,
          unlockedIn: Type.String(),
          partnerCode: Type.Boolean(),
          partnerName: Type.String(),
          image: ImageFile,
          /** ISO countries of the legal entities where the reward is offered. */
          legalEntities: Countries,
          benefits: Type.Array(Type.Object({ titleId: Type.String(), showOnCard: Type.Boolean() }, closed), {
            minItems: 1,
          }),
        },
        closed,
      ),
    ),
  },
  closed,
);
export type ProgrammeFile = Type.Static<typeof ProgrammeFile>;
export type ProgrammeTier = ProgrammeFile['tiers'][number];
export type ProgrammeReward = ProgrammeFile['rewards'][number];

/**
 * texts/{lang}.json: tier and reward texts; benefit texts keyed by the benefit's title id. Fields are
 * optional here so that one missing text does not hide the file's other problems: the cross-checks
 * report every missing one.
 */
export const ProgrammeTextsFile = Type.Object(
  {
    tiers: Type.Record(
      Type.String(),
      Type.Object({ title: Type.Optional(Text), text: Type.Optional(Text) }, closed),
    ),
    rewards: Type.Record(
      Type.String(),
      Type.Object(
        {
          title: Type.Optional(Text),
          description: Type.Optional(Text),
          howTo: Type.Optional(Text),
          benefits: Type.Optional(Type.Record(Type.String(), Text)),
        },
        closed,
      ),
    ),
  },
  closed,
);
export type ProgrammeTextsFile = Type.Static<typeof ProgrammeTextsFile>;

/** A texts file in which the cross-checks found every text. */
export interface CompleteProgrammeTexts {
  tiers: Record<string, { title: string; text: string }>;
  rewards: Record<
    string,
    { title: string; description: string; howTo: string; benefits: Record<string, string> }
  >;
}

/** faq/{lang}.json: the programme FAQ, the same entry ids in the same order in every language. */
export const FaqFile = Type.Object(
  { entries: Type.Array(Type.Object({ id: Id, question: Text, answer: Text }, closed)) },
  closed,
);
export type FaqFile = Type.Static<typeof FaqFile>;

/** consents/definitions.json: which consents exist, where, in which processes and sets. */
export const ConsentDefinitionsFile = Type.Object(
  {
    consents: Type.Array(
      Type.Object(
        {
          slug: ConsentSlug,
          processes: Type.Array(Id),
          sets: Type.Array(Id),
          required: Type.Boolean(),
          legalEntities: Countries,
        },
        closed,
      ),
    ),
  },
  closed,
);
export type ConsentDefinitionsFile = Type.Static<typeof ConsentDefinitionsFile>;
export type ConsentDefinitionEntry = ConsentDefinitionsFile['consents'][number];

/** consents/texts/{lang}.json: title and description of every consent. */
export const ConsentTextsFile = Type.Record(
  Type.String(),
  Type.Object({ title: Text, description: Text }, closed),
);
export type ConsentTextsFile = Type.Static<typeof ConsentTextsFile>;
