import { describe, expect, it } from 'vitest';
import { durationText, outcomeText, progressText, rateText, recordsPerSecond, timeLeftText } from './progress-text';

describe('download progress text', () => {
  it('says "X of N records"', () => {
    expect(progressText(2000, 12345)).toBe('2,000 of 12,345 records');
    expect(progressText(0, 1)).toBe('0 of 1 record');
    expect(progressText(500, undefined)).toBe('500 records');
  });

  it('gives the rate and the time left once there is something to measure', () => {
    expect(recordsPerSecond(0, 5000)).toBeUndefined();
    const rate = recordsPerSecond(2000, 4000);
    expect(rateText(rate)).toBe('500 records/s');
    expect(timeLeftText(2000, 32000, rate)).toBe('about 1 min left');
    expect(timeLeftText(2000, 302000, rate)).toBe('about 10 min left');
    expect(timeLeftText(2000, 2400, rate)).toBe('about 1 s left');
    expect(timeLeftText(2000, undefined, rate)).toBeUndefined();
  });

  it('writes long durations in hours and minutes', () => {
    expect(durationText(0.2)).toBe('1 s');
    expect(durationText(59)).toBe('59 s');
    expect(durationText(61)).toBe('2 min');
    expect(durationText(3 * 3600 + 5 * 60)).toBe('3 h 5 min');
  });

  it('never lets an incomplete download read as a finished one', () => {
    const outcome = outcomeText({ status: 'incomplete', written: 3000, total: 5000, reason: 'The server answered 500.' }, 'saved');
    expect(outcome).toEqual({ tone: 'problem', text: 'Download incomplete: 3,000 of 5,000 records. The server answered 500.' });
  });

  it('measures an unfinished download against the cap when the set is larger', () => {
    expect(outcomeText({ status: 'incomplete', written: 0, total: 250000, reason: 'Busy.' }, 'saved', 100000).text).toBe(
      'Download incomplete: 0 of 100,000 records. Busy.',
    );
    expect(outcomeText({ status: 'cancelled', written: 1000, total: 2500 }, 'saved', 2200).text).toBe(
      'Download cancelled after 1,000 of 2,200 records. Nothing was saved.',
    );
  });

  it('says when the cap cut a download short', () => {
    expect(outcomeText({ status: 'complete', written: 100000, total: 250000, capped: true }, 'saved as lit.csv').text).toBe(
      'Download complete: the first 100,000 records of 250,000 (the limit per download) saved as lit.csv.',
    );
    expect(outcomeText({ status: 'complete', written: 12, total: 12, capped: false }, 'saved as lit.csv').text).toBe(
      'Download complete: 12 records saved as lit.csv.',
    );
  });
});
