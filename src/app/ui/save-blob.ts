/** Hands a finished file to the browser's downloads: a Blob, an object URL, <a download>. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by now; revoking later frees the memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
