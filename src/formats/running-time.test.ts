import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { runningTime, servedMediaSeconds } from './running-time';

const file = (href: string) => readFileSync(new URL(`../../public${href}`, import.meta.url));

/** A WAV file's length: its data chunk's size over the byte rate its header states. */
function wavSeconds(bytes: Buffer): number {
  const data = bytes.indexOf('data', 12, 'latin1');
  return bytes.readUInt32LE(data + 4) / bytes.readUInt32LE(28);
}

/** An MP4 file's length: the movie header's duration over its time scale (version 0 box). */
function mp4Seconds(bytes: Buffer): number {
  const header = bytes.indexOf('mvhd', 0, 'latin1');
  return bytes.readUInt32BE(header + 20) / bytes.readUInt32BE(header + 16);
}

describe('running time', () => {
  it('the served sample files last as long as the table says', () => {
    expect(wavSeconds(file('/media/sample-melody.wav'))).toBeCloseTo(servedMediaSeconds['/media/sample-melody.wav']!, 1);
    expect(mp4Seconds(file('/media/sample-video.mp4'))).toBeCloseTo(servedMediaSeconds['/media/sample-video.mp4']!, 1);
  });

  it('is the linked sample file’s length as H:MM:SS, and unknown for a file elsewhere', () => {
    const mm = deploymentByKey('MM')!;
    const record = (href: string) => ({ repo_id: '1', product_type: 'Video', links: [{ rel: 'media', href }] });
    expect(runningTime(mm, record('/media/sample-video.webm'))).toBe('0:00:03');
    expect(runningTime(mm, record('/media/sample-melody.mp3'))).toBe('0:00:03');
    expect(runningTime(mm, record('https://example.org/talk.mp4'))).toBeUndefined();
    expect(runningTime(mm, { repo_id: '2', product_type: 'Video' })).toBeUndefined();
  });
});
