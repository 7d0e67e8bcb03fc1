import { expect, test } from 'vitest';
import { playableOf } from './playable';

test('bare subtypes and full media types; others are downloads only', () => {
  expect(playableOf('mp4')).toEqual({ element: 'video', type: 'video/mp4' });
  expect(playableOf('WebM')).toEqual({ element: 'video', type: 'video/webm' });
  expect(playableOf('x-wav')).toEqual({ element: 'audio', type: 'audio/wav' });
  expect(playableOf('ogg')?.element).toBe('audio');
  expect(playableOf('video/ogg')?.element).toBe('video');
  expect(playableOf('mpeg')).toEqual({ element: 'audio', type: 'audio/mpeg' });
  expect(playableOf('html')).toBeUndefined();
  expect(playableOf('x-ms-wma')).toBeUndefined();
  expect(playableOf(undefined)).toBeUndefined();
});
