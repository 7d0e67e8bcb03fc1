import { describe, expect, it } from 'vitest';
import { copyRichText, type ClipboardItemFactory, type ClipboardLike } from './clipboard';

/** A clipboard that records what was written, as a browser's would hold it. */
function fakeClipboard(options: { refuseRich?: boolean; noWrite?: boolean } = {}) {
  const written: { types: Record<string, string> }[] = [];
  const clipboard: ClipboardLike = {
    writeText: async (text) => {
      written.push({ types: { 'text/plain': text } });
    },
  };
  if (!options.noWrite) {
    clipboard.write = async (items) => {
      if (options.refuseRich) throw new DOMException('Type text/html not supported', 'NotAllowedError');
      for (const item of items as unknown as { parts: Record<string, Blob> }[]) {
        const types: Record<string, string> = {};
        for (const [type, blob] of Object.entries(item.parts)) types[type] = await blob.text();
        written.push({ types });
      }
    };
  }
  return { clipboard, written };
}

const makeItem: ClipboardItemFactory = (parts) => ({ parts }) as unknown as ClipboardItem;
const content = { html: '<p>First <i>A</i></p>\n<p>Second</p>', text: 'First A\n\nSecond' };

describe('copyRichText', () => {
  it('puts HTML and plain text on the clipboard together', async () => {
    const { clipboard, written } = fakeClipboard();
    await expect(copyRichText(content, clipboard, makeItem)).resolves.toEqual({ copied: 'rich' });
    expect(written).toEqual([{ types: { 'text/html': content.html, 'text/plain': content.text } }]);
  });

  it('falls back to plain text when the browser refuses HTML', async () => {
    const { clipboard, written } = fakeClipboard({ refuseRich: true });
    await expect(copyRichText(content, clipboard, makeItem)).resolves.toEqual({ copied: 'text' });
    expect(written).toEqual([{ types: { 'text/plain': content.text } }]);
  });

  it('falls back to plain text where ClipboardItem does not exist', async () => {
    const { clipboard, written } = fakeClipboard({ noWrite: true });
    await expect(copyRichText(content, clipboard, undefined)).resolves.toEqual({ copied: 'text' });
    expect(written).toHaveLength(1);
  });

  it('says so when there is no clipboard at all', async () => {
    await expect(copyRichText(content, undefined, makeItem)).rejects.toThrow(/copying/);
  });
});
