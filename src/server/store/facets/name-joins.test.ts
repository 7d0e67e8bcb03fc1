import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinedGroups, joinedNames } from './name-joins';

describe('joinedNames', () => {
  it('joins a shorter form to the one longer name it can stand for', () => {
    expect(joinedNames(['fredrickson, e', 'fredrickson, e d', 'diallo, a'])).toEqual(new Map([['fredrickson, e', 'fredrickson, e d']]));
    expect(joinedNames(['kaye, s', 'kaye, s m', 'kaye, s m x'])).toEqual(
      new Map([
        ['kaye, s', 'kaye, s m x'],
        ['kaye, s m', 'kaye, s m x'],
      ]),
    );
  });

  it('joins nothing where the shorter form could be either of two people', () => {
    expect(joinedNames(['fredrickson, e', 'fredrickson, e d', 'fredrickson, e m'])).toEqual(new Map());
    expect(joinedNames(['smith, j', 'smith, j a', 'smith, j a b', 'smith, j c'])).toEqual(new Map([['smith, j a', 'smith, j a b']]));
  });

  it('never joins different surnames, bare surnames or different initials', () => {
    expect(joinedNames(['fredrickson', 'fredrickson, e', 'fredricksen, e d', 'fredrickson, d e'])).toEqual(new Map());
  });

  it('joins only to a longer form of the same name that is itself joined to nothing, and each group has one longest form', () => {
    const initials = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 });
    const name = fc.tuple(fc.constantFrom('doe', 'roe'), initials).map(([surname, letters]) => `${surname}, ${letters.join(' ')}`);
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 12 }), (names) => {
        const joins = joinedNames(names);
        for (const [short, longest] of joins) {
          if (!longest.startsWith(`${short} `) || !names.includes(longest) || joins.has(longest)) return false;
          // Unambiguous: every longer form of the short one is a form of the longest.
          for (const other of names)
            if (other.startsWith(`${short} `) && other !== longest && !longest.startsWith(`${other} `)) return false;
        }
        const groups = joinedGroups(joins);
        for (const [member, group] of groups) if (!group.includes(member) || joins.get(group[0]!) !== undefined) return false;
        return true;
      }),
    );
  });
});
