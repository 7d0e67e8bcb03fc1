import { describe, expect, test } from 'vitest';
import { standsAsTitle } from './title-in-text';

const title = 'A reduced resistive wall mode kinetic stability model';

describe('a record’s title standing in a reference as its title', () => {
  test('after the year’s or the authors’ punctuation, in quotes, or at a line’s start, and closed by punctuation or the line’s end', () => {
    expect(standsAsTitle(`Berkery, J. W. (2017). ${title}. PPPL.`, title)).toBe(true);
    expect(standsAsTitle(`[1] J. W. Berkery, “${title},” PPPL, 2017.`, title)).toBe(true);
    expect(standsAsTitle(`${title}\nBerkery 2017`, title)).toBe(true);
    expect(standsAsTitle(`Berkery 2017:\n${title}`, title)).toBe(true);
    expect(standsAsTitle(`Berkery JW. ${title}`, title)).toBe(true);
  });

  test('case, accents and the punctuation between words are not the title’s', () => {
    expect(standsAsTitle('Müller K. (2019). Molten-salt reactor: design notes. ORNL.', 'Molten salt reactor design notes')).toBe(true);
    expect(standsAsTitle('Muller K. (2019). MOLTEN SALT REACTOR DESIGN NOTES. ORNL.', 'Molten-salt reactor: design notes')).toBe(true);
  });

  test('not when a subtitle, another word or a part follows, or when it starts inside a sentence', () => {
    expect(standsAsTitle(`Berkery (2017). ${title}: Part II. PPPL.`, title)).toBe(false);
    expect(standsAsTitle(`Berkery (2017). ${title} revisited. PPPL.`, title)).toBe(false);
    expect(standsAsTitle(`Berkery (2017). Towards ${title}. PPPL.`, title)).toBe(false);
    expect(standsAsTitle(`Berkery (2017). ${title}s. PPPL.`, title)).toBe(false);
    expect(standsAsTitle('Berkery (2017). Kinetic stability. PPPL.', title)).toBe(false);
  });

  test('a title’s own closing marks are its own, before what closes it', () => {
    const versioned = 'Surface Water Chemistry (v2)';
    expect(standsAsTitle(`Berkery. “${versioned},” PPPL, 2017.`, versioned)).toBe(true);
    expect(standsAsTitle(`Berkery. ${versioned}. PPPL, 2017.`, versioned)).toBe(true);
    expect(standsAsTitle(`Berkery. “${versioned}: Part II,” PPPL, 2017.`, versioned)).toBe(false);
    expect(standsAsTitle('Berkery. Surface Water Chemistry v2. PPPL, 2017.', versioned)).toBe(false);
  });

  test('found where its words come again after a false start, and one word is never a title', () => {
    expect(standsAsTitle('Lee. Wall wall wall mode. 2020.', 'wall wall mode')).toBe(false);
    expect(standsAsTitle('Lee. Wall mode, wall wall mode. 2020.', 'wall wall mode')).toBe(true);
    expect(standsAsTitle('Lee. Wall, wall wall mode. 2020.', 'wall wall mode')).toBe(true);
    expect(standsAsTitle('Lee. Wall wall wall wall mode. Wall wall mode. 2020.', 'wall wall mode')).toBe(true);
    expect(standsAsTitle('Lee. Plasma. 2020.', 'Plasma')).toBe(false);
  });
});
