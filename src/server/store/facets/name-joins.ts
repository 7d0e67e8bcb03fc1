import type Database from 'better-sqlite3';
import type { KeyName } from '../../../deployments/key-names';
import type { Deployment } from '../../../deployments/schema';
import { tablesOf } from '../sqlite/schema';

/**
 * Shorter forms of one person's name that join the longer one, decided over a catalog's
 * names: `fredrickson, e` (Fredrickson, E / Eric) joins `fredrickson, e d` where every other
 * `fredrickson, e …` of the catalog is a form of that same longest name (`fredrickson, e d m`
 * is; `fredrickson, e m` is not, and then nothing joins). Names are folded as the author
 * facet folds them (formats/value-folding.ts: `surname, initials`). Over the catalog, not a
 * result set, so a name selects the same records whatever else a search asks.
 */

/** Each name that joins a longer one, mapped to the longest form it joins. */
export function joinedNames(names: Iterable<string>): Map<string, string> {
  const bySurname = new Map<string, string[]>();
  for (const name of names) {
    const comma = name.indexOf(', ');
    if (comma <= 0) continue;
    const surname = name.slice(0, comma);
    let initials = bySurname.get(surname);
    if (!initials) bySurname.set(surname, (initials = []));
    initials.push(name.slice(comma + 2));
  }
  const joins = new Map<string, string>();
  for (const [surname, initials] of bySurname) {
    if (initials.length < 2) continue;
    // Sorted, a form's longer forms (it and a space, then more) follow it together.
    initials.sort();
    for (let i = 0; i < initials.length; i++) {
      const short = initials[i]!;
      const prefix = `${short} `;
      let longest: string | undefined;
      let chain = true;
      for (let j = i + 1; j < initials.length && initials[j]!.startsWith(prefix); j++) {
        const longer = initials[j]!;
        if (longest === undefined || longer.startsWith(`${longest} `)) longest = longer;
        else if (!longest.startsWith(`${longer} `)) chain = false;
      }
      if (longest !== undefined && chain) joins.set(`${surname}, ${short}`, `${surname}, ${longest}`);
    }
  }
  return joins;
}

/**
 * The catalog's joins of names stored under a person-folded key (`author_name`), read from
 * the keys the writer stored, which hold the folded names themselves.
 */
export function storedJoins(db: Database.Database, deployment: Deployment, key: KeyName): Map<string, string> {
  const names = db
    .prepare(`SELECT DISTINCT value FROM ${tablesOf(deployment).keys} WHERE name = ?`)
    .pluck()
    .all(key) as string[];
  return joinedNames(names);
}

/** Each name of a joined group mapped to every name of the group (the longest form first). */
export function joinedGroups(joins: ReadonlyMap<string, string>): Map<string, readonly string[]> {
  const groups = new Map<string, string[]>();
  for (const [short, longest] of joins) {
    let group = groups.get(longest);
    if (!group) groups.set(longest, (group = [longest]));
    group.push(short);
    groups.set(short, group);
  }
  return groups;
}
