import type { Page } from 'playwright-core';

export interface ClipboardContent {
  types: string[];
  html?: string;
  text?: string;
}

/** What the page put on the clipboard (the context needs clipboard-read permission). */
export async function readClipboard(page: Page): Promise<ClipboardContent> {
  return page.evaluate(async () => {
    const items = await navigator.clipboard.read();
    const content: { types: string[]; html?: string; text?: string } = { types: [] };
    for (const item of items) {
      for (const type of item.types) {
        content.types.push(type);
        const text = await (await item.getType(type)).text();
        if (type === 'text/html') content.html = text;
        if (type === 'text/plain') content.text = text;
      }
    }
    return content;
  });
}
