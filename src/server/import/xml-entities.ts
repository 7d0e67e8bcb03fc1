import type { EntityDecoderOptions } from 'fast-xml-parser';

/**
 * Decodes only what XML itself defines: the five predefined entities and numeric
 * character references. Entities declared in a DOCTYPE are never expanded, which closes
 * the door on expansion bombs whatever the input declares.
 */

const predefined: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const reference = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** One pass, so `&amp;#39;` becomes the text `&#39;` and not an apostrophe. */
export function decodeXmlEntities(text: string): string {
  return text.replace(reference, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return predefined[name] ?? whole;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
    return isXmlChar(code) ? String.fromCodePoint(code) : whole;
  });
}

/** The decoder in the shape fast-xml-parser plugs in; DOCTYPE entities are ignored. */
export function xmlEntityDecoder(): EntityDecoderOptions {
  return {
    setExternalEntities: () => undefined,
    addInputEntities: () => undefined,
    reset: () => undefined,
    setXmlVersion: () => undefined,
    decode: decodeXmlEntities,
  };
}
