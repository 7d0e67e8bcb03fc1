import { expect, test } from 'vitest';
import { canPlay, mediaFormatOf } from './playable';

test('bare subtypes and full media types name one format', () => {
  expect(mediaFormatOf('mp4')).toEqual({ name: 'MP4 video', type: 'video/mp4', element: 'video' });
  expect(mediaFormatOf('WebM')?.type).toBe('video/webm');
  expect(mediaFormatOf('x-wav')).toEqual(mediaFormatOf('audio/wav'));
  expect(mediaFormatOf('ogg')?.element).toBe('audio');
  expect(mediaFormatOf('video/ogg')?.element).toBe('video');
  expect(mediaFormatOf('mpeg')?.type).toBe('audio/mpeg');
  expect(mediaFormatOf(undefined)).toBeUndefined();
  expect(mediaFormatOf(' ')).toBeUndefined();
});

test('Windows Media Audio is named for the reader; a web page is no media, and an unknown format plays in no element', () => {
  expect(mediaFormatOf('x-ms-wma')).toEqual({ name: 'Windows Media Audio (WMA)', type: 'audio/x-ms-wma', element: 'audio' });
  expect(mediaFormatOf('audio/x-ms-wma')?.name).toBe('Windows Media Audio (WMA)');
  expect(mediaFormatOf('html')).toEqual({ name: 'Web page', type: 'text/html', page: true });
  expect(mediaFormatOf('x-realaudio')).toEqual({ name: 'x-realaudio media', type: 'application/x-realaudio' });
  expect(mediaFormatOf('application/x-shockwave-flash')?.name).toBe('x-shockwave-flash media');
  // Nothing to ask the browser about: no element plays these.
  expect(canPlay(mediaFormatOf('html')!)).toBe(false);
  expect(canPlay(mediaFormatOf('x-realaudio')!)).toBe(false);
});
