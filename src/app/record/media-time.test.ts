import { expect, it } from 'vitest';
import { linkAtTime, mediaStartOf } from './media-time';

it('reads a start time from a media fragment in its usual forms', () => {
  expect(mediaStartOf('#t=90')).toBe(90);
  expect(mediaStartOf('#t=90.5')).toBe(90.5);
  expect(mediaStartOf('#t=1:30')).toBe(90);
  expect(mediaStartOf('#t=1:02:03')).toBe(3723);
  expect(mediaStartOf('#t=npt:12')).toBe(12);
  expect(mediaStartOf('#t=10,20')).toBe(10);
  for (const hash of ['', '#', '#t=', '#t=abc', '#t=-5', '#t=1:75:00', '#x=3']) expect(mediaStartOf(hash), hash).toBeUndefined();
});

it('makes a link at the current second, replacing any earlier time', () => {
  expect(linkAtTime('https://example.org/mm/records/5#t=3', 42.9)).toBe('https://example.org/mm/records/5#t=42');
});
