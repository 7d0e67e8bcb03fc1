/**
 * Copying citations: HTML (italics and all, for word processors) together with plain text
 * (for everything else). Browsers without ClipboardItem, or that refuse HTML, still get the
 * plain text.
 */

export interface ClipboardLike {
  write?: (items: ClipboardItem[]) => Promise<void>;
  writeText: (text: string) => Promise<void>;
}

export type ClipboardItemFactory = (parts: Record<string, Blob>) => ClipboardItem;

export interface CopyResult {
  /** 'rich' when HTML went along with the text. */
  readonly copied: 'rich' | 'text';
}

export async function copyRichText(
  content: { html: string; text: string },
  clipboard: ClipboardLike | undefined = globalThis.navigator?.clipboard,
  makeItem: ClipboardItemFactory | undefined = typeof ClipboardItem === 'function' ? (parts) => new ClipboardItem(parts) : undefined,
): Promise<CopyResult> {
  if (!clipboard) throw new Error('This browser does not allow copying from a page.');
  if (clipboard.write && makeItem) {
    try {
      await clipboard.write([
        makeItem({
          'text/html': new Blob([content.html], { type: 'text/html' }),
          'text/plain': new Blob([content.text], { type: 'text/plain' }),
        }),
      ]);
      return { copied: 'rich' };
    } catch {
      // Some browsers refuse text/html (or any write without a fresh gesture): plain text still helps.
    }
  }
  await clipboard.writeText(content.text);
  return { copied: 'text' };
}
