import { readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { kindOfProductType } from './draft';
import { generateRecords } from './generate';
import { type MediaFile, mediaFileOf, mediaFiles, mimeTypeShares } from './media';

const mediaFolder = fileURLToPath(new URL('../../../public/media/', import.meta.url));
const bytesOf = (file: MediaFile) => readFileSync(`${mediaFolder}${file.file}`);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

/** What each content type's files must start with, so a browser recognises them. */
const signatures: Record<string, (bytes: Buffer) => boolean> = {
  'video/mp4': (bytes) => ascii(bytes, 4, 8) === 'ftyp',
  'video/webm': (bytes) => bytes.readUInt32BE(0) === 0x1a45dfa3 && bytes.includes('webm'),
  'audio/wav': (bytes) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE',
  'audio/ogg': (bytes) => ascii(bytes, 0, 4) === 'OggS',
  'audio/mpeg': (bytes) => ascii(bytes, 0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0),
  'audio/x-ms-wma': (bytes) => bytes.subarray(0, 4).equals(Buffer.from([0x30, 0x26, 0xb2, 0x75])),
  'text/html; charset=utf-8': (bytes) => /^<!doctype html>/i.test(ascii(bytes, 0, 15)),
};

const mm = deploymentByKey('MM')!;
const records = [...generateRecords(mm, 2000, { seed: 9 })];

describe('sample media files', () => {
  it.each(Object.entries(mediaFiles))('%s points at a real file of its content type', (_, file) => {
    expect(file.href).toBe(`/media/${file.file}`);
    const signature = signatures[file.contentType];
    expect(signature, `no signature check for ${file.contentType}`).toBeDefined();
    expect(signature!(bytesOf(file))).toBe(true);
  });

  it('marks as playable only formats every Chromium build plays', () => {
    const playable = Object.values(mediaFiles).filter((file) => file.playable);
    for (const file of playable) expect(file.contentType).toMatch(/^(video\/webm|audio\/(wav|ogg|mpeg))$/);
    expect(playable.map((file) => file.playable)).toContain('video');
    expect(playable.map((file) => file.playable)).toContain('audio');
  });

  it('keeps the whole media folder small enough to commit', () => {
    const total = readdirSync(mediaFolder).reduce((sum, name) => sum + statSync(`${mediaFolder}${name}`).size, 0);
    expect(total).toBeLessThan(400_000);
  });

  it('finds a media file by mime type in any case, and none for unknown types', () => {
    expect(mediaFileOf('MP4')).toBe(mediaFiles.mp4);
    expect(mediaFileOf(' x-ms-wma ')).toBe(mediaFiles['x-ms-wma']);
    expect(mediaFileOf('x-flv')).toBeUndefined();
    expect(mediaFileOf('toString')).toBeUndefined();
    expect(mediaFileOf(null)).toBeUndefined();
  });
});

describe('multimedia records', () => {
  it('link to the media file of their mime type (web pages to none), and have no full text', () => {
    for (const stored of records) {
      const { record } = stored;
      const file = mediaFileOf(record.mime_type as string);
      expect(file).toBeDefined();
      const media = (record.links as { rel: string; href: string }[]).filter((link) => link.rel === 'media');
      expect(media).toEqual(record.mime_type === 'html' ? [] : [{ rel: 'media', href: file!.href }]);
      expect(stored.fulltext).toBeUndefined();
    }
  });

  it('use every mime type, most often mp4', () => {
    const counts = new Map<string, number>();
    for (const { record } of records) counts.set(record.mime_type as string, (counts.get(record.mime_type as string) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(mimeTypeShares.map(([type]) => type).sort());
    expect(Math.max(...counts.values())).toBe(counts.get('mp4'));
  });

  it('have a product type that fits the file: video for video files, audio for audio', () => {
    for (const { record } of records) {
      const kind = kindOfProductType(record.product_type as string);
      const contentType = mediaFileOf(record.mime_type as string)!.contentType;
      if (contentType.startsWith('video/')) expect(kind).toBe('video');
      else if (contentType.startsWith('audio/')) expect(kind).toBe('audio');
      else expect(['video', 'audio']).not.toContain(kind);
    }
  });
});
