import { type ApiRecord, fieldByName, paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { StoredRecord } from '../store/types';
import { kindOfProductType, makeDraft } from './draft';
import { type FieldBuilder, type FieldContext, fieldBuilders } from './field-values';
import { type MediaMimeType, mediaFiles, mimeTypeShares } from './media';
import { type Picker, Random, hashString, weightedPicker, zipfPicker } from './random';

/**
 * Deterministic synthetic records for any deployment of the table. Each record is drawn
 * from its own random stream (seed, deployment, id), so record N is the same in a corpus
 * of ten records and in one of a million, and corpora of different deployments differ.
 */

export interface GenerateOptions {
  seed: number;
  /** first numeric id; ids are consecutive decimal strings */
  startId?: number;
}

/** Upstream ids have at most 8 digits and stay below this, so synthetic ids never collide. */
export const defaultStartId = 50_000_001;

/**
 * Share of records with a full text. A deployment whose parameters cannot search full
 * text holds none; one that offers `has_fulltext` makes full text a main feature.
 */
export function fulltextShareOf(deployment: Deployment): number {
  if (!paramByName(deployment, 'fulltext')) return 0;
  return paramByName(deployment, 'has_fulltext') ? 0.4 : 0.2;
}

interface Plan {
  readonly deployment: Deployment;
  readonly stream: number;
  readonly builders: readonly (readonly [string, FieldBuilder])[];
  readonly fulltextShare: number;
  /** Whether a record field holds the submitter code; otherwise it travels as `site`. */
  readonly siteInRecord: boolean;
  /** Draws the product type, and for media deployments the mime type it goes with. */
  readonly drawType: (random: Random) => { productType: string; mimeType?: MediaMimeType };
}

type MediaClass = 'video' | 'audio' | 'other';

const mediaClassOf = (mimeType: MediaMimeType): MediaClass => {
  const { contentType } = mediaFiles[mimeType];
  return contentType.startsWith('video/') ? 'video' : contentType.startsWith('audio/') ? 'audio' : 'other';
};

function typeDrawer(deployment: Deployment): Plan['drawType'] {
  if (deployment.productTypes.length === 0) throw new Error(`${deployment.key} lists no product types`);
  // The table lists product types commonest first.
  const productTypes = zipfPicker(deployment.productTypes, 1.2);
  if (!fieldByName(deployment, 'mime_type')) return (random) => ({ productType: productTypes.draw(random) });

  // A media record's product type must fit its file: video for video files and so on.
  const mimeTypes = weightedPicker(mimeTypeShares);
  const byClass = new Map<MediaClass, Picker<string>>();
  for (const mediaClass of ['video', 'audio', 'other'] as const) {
    const fitting = deployment.productTypes.filter((type) => {
      const kind = kindOfProductType(type);
      return mediaClass === 'other' ? kind !== 'video' && kind !== 'audio' : kind === mediaClass;
    });
    byClass.set(mediaClass, fitting.length ? zipfPicker(fitting) : productTypes);
  }
  return (random) => {
    const mimeType = mimeTypes.draw(random);
    return { productType: byClass.get(mediaClassOf(mimeType))!.draw(random), mimeType };
  };
}

function planFor(deployment: Deployment): Plan {
  const builders = deployment.fields.map((field) => {
    const builder = fieldBuilders[field.name];
    if (!builder) throw new Error(`The corpus generator has no values for field ${field.name} of ${deployment.key}`);
    return [field.name, builder] as const;
  });
  return {
    deployment,
    stream: hashString(deployment.key),
    builders,
    fulltextShare: fulltextShareOf(deployment),
    siteInRecord: deployment.fields.some((field) => field.keys?.includes('site')),
    drawType: typeDrawer(deployment),
  };
}

function makeRecord(plan: Plan, id: number, random: Random): StoredRecord {
  const draft = makeDraft({ id, ...plan.drawType(random), fulltextShare: plan.fulltextShare }, random);
  const context: FieldContext = { deployment: plan.deployment, draft, random };
  const record: Record<string, unknown> = {};
  for (const [name, build] of plan.builders) record[name] = build(context);
  const stored: { record: ApiRecord; fulltext?: string; site?: string; generated: true } = { record: record as ApiRecord, generated: true };
  if (draft.fulltext !== undefined) stored.fulltext = draft.fulltext;
  if (!plan.siteInRecord) stored.site = draft.site;
  return stored;
}

export function* generateRecords(deployment: Deployment, count: number, options: GenerateOptions): Generator<StoredRecord> {
  const startId = options.startId ?? defaultStartId;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, not ${count}`);
  if (!Number.isSafeInteger(startId) || startId < 1 || !Number.isSafeInteger(startId + count)) {
    throw new RangeError(`startId must be a positive integer, not ${startId}`);
  }
  if (!Number.isFinite(options.seed)) throw new RangeError(`seed must be a finite number, not ${options.seed}`);
  const plan = planFor(deployment);
  const random = new Random(options.seed, plan.stream, startId);
  for (let id = startId; id < startId + count; id++) {
    random.reseed(options.seed, plan.stream, id);
    yield makeRecord(plan, id, random);
  }
}
