import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { roleValue } from './record-roles';

/**
 * How long a record's recording runs. No catalogue field says so; what is known is the length
 * of the media file a record links to when it is one of the sample files this server ships
 * (public/media/, made by src/server/corpus/make-media.sh; media-durations.test.ts measures
 * them). A file elsewhere has no known length, and its record no running time.
 */
const secondsOfServedFile: Readonly<Record<string, number>> = {
  '/media/sample-video.webm': 2.5,
  '/media/sample-video.mp4': 2.5,
  '/media/sample-melody.wav': 3,
  '/media/sample-melody.ogg': 3,
  '/media/sample-melody.mp3': 3,
  '/media/sample-melody.wma': 3,
};

export const servedMediaSeconds = secondsOfServedFile;

/**
 * The running time as H:MM:SS, to the nearest second: reference managers keep it as text and
 * citation styles print it as it is, where a bare number would read as minutes.
 */
export function runningTime(deployment: Deployment, record: ApiRecord): string | undefined {
  const stored = roleValue(deployment, record, 'links');
  const links = Array.isArray(stored) ? (stored as { rel?: unknown; href?: unknown }[]) : [];
  const href = links.find(
    (link) => link?.rel === 'media' && typeof link.href === 'string' && Object.hasOwn(secondsOfServedFile, link.href),
  )?.href;
  if (typeof href !== 'string') return undefined;
  const total = Math.max(1, Math.round(secondsOfServedFile[href]!));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${Math.floor(total / 3600)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}
