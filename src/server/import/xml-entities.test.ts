import { describe, expect, it } from 'vitest';
import { decodeXmlEntities } from './xml-entities';

describe('decodeXmlEntities', () => {
  it('decodes the predefined entities and character references', () => {
    expect(decodeXmlEntities('a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#039; &#x41;&#233;')).toBe(`a <b> & "c" 'd' ' Aé`);
  });

  it('decodes in one pass, so escaped references stay literal', () => {
    expect(decodeXmlEntities('&amp;#039; &amp;lt;')).toBe('&#039; &lt;');
  });

  it('leaves unknown names and characters XML cannot carry untouched', () => {
    expect(decodeXmlEntities('&nbsp; &#0; &#xD800; &#x110000;')).toBe('&nbsp; &#0; &#xD800; &#x110000;');
  });
});
