import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CitationView } from './CitationView';
import { decodeEntities, nodesToHtml, nodesToText, parseCitationHtml } from './citation-html';

const render = (html: string) => renderToStaticMarkup(createElement(CitationView, { nodes: parseCitationHtml(html) }));

describe('parseCitationHtml', () => {
  it('keeps the markup citeproc writes: entries, margins, italics, small caps', () => {
    const html =
      '<div class="csl-entry"><div class="csl-left-margin">[1]</div><div class="csl-right-inline">S. Kumari, “A &#60;b&#62; &#38; title,” <i>J. Data</i>, <span style="font-variant:small-caps;">usdoe</span>, H<sub>2</sub>O<sup>+</sup>.</div></div>';
    expect(render(html)).toBe(
      '<div class="csl-entry"><div class="csl-left-margin">[1]</div> <div class="csl-right-inline">S. Kumari, “A &lt;b&gt; &amp; title,” <i>J. Data</i>, <span class="csl-small-caps">usdoe</span>, H<sub>2</sub>O<sup>+</sup>.</div></div>',
    );
  });

  it('drops scripts, event handlers and unknown elements, keeping their text where it is text', () => {
    const html =
      '<div class="csl-entry" onclick="steal()"><script>alert(1)</script><img src=x onerror="alert(2)"><iframe src="https://evil.example"></iframe><u>Title</u> <style>*{}</style><b onmouseover="x()">bold</b></div>';
    const out = render(html);
    expect(out).toBe('<div class="csl-entry">Title <b>bold</b></div>');
    expect(out).not.toMatch(/script|onerror|onclick|onmouseover|iframe|alert/);
  });

  it('keeps only http(s) link targets', () => {
    expect(render('<a href="https://doi.org/10.1/x">doi</a>')).toBe('<a href="https://doi.org/10.1/x" rel="noreferrer">doi</a>');
    expect(render('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(render('<a href=" data:text/html,hi ">x</a>')).toBe('<a>x</a>');
  });

  it('keeps only csl-* classes', () => {
    expect(render('<span class="csl-block evil big">x</span>')).toBe('<span class="csl-block">x</span>');
  });

  it('drops the indentation of citeproc’s block layout but keeps spaces between words', () => {
    const html = '<div class="csl-bib-body">\n  <div class="csl-entry">A <i>B</i> <b>C</b></div>\n</div>';
    expect(render(html)).toBe('<div class="csl-bib-body"><div class="csl-entry">A <i>B</i> <b>C</b></div></div>');
  });

  it('survives malformed markup: stray <, unclosed and mismatched tags, comments', () => {
    expect(nodesToText(parseCitationHtml('a < b <i>c <b>d</i> e<!-- hidden --> f'))).toBe('a < b c d e f');
    expect(render('<i>open')).toBe('<i>open</i>');
    expect(render('</b>text')).toBe('text');
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex entities and refuses impossible code points', () => {
    expect(decodeEntities('&amp;&lt;&gt;&quot;&apos;&#38;&#x2014;&nbsp;&unknown;')).toBe('&<>"\'&—\u00A0&unknown;');
    expect(decodeEntities('&#xD800;&#1114112;')).toBe('\uFFFD\uFFFD');
  });
});

describe('nodesToHtml', () => {
  it('escapes every text and flattens blocks into one paragraph-safe line', () => {
    const nodes = parseCitationHtml(
      '<div class="csl-entry"><div class="csl-left-margin">1.</div><div class="csl-right-inline">A &#60;script&#62; &amp; <i>B</i></div></div>',
    );
    expect(nodesToHtml(nodes, { inline: true })).toBe(
      '<span class="csl-entry"><span class="csl-left-margin">1.</span> <span class="csl-right-inline">A &lt;script&gt; &amp; <i>B</i></span></span>',
    );
  });
});
