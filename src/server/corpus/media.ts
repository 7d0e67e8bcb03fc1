/**
 * The sample media files in public/media/ (served at /media/) that synthetic multimedia
 * records link to, by the record's mime_type. Every mime type points at a real file of
 * that type; `playable` says whether browsers can play it in a <video> or <audio> element.
 * make-media.sh (beside this file) regenerates the files.
 */

export interface MediaFile {
  /** File name under /media/. */
  readonly file: string;
  /** Root-relative address the server and the app's dev server serve it at. */
  readonly href: string;
  /** Content-Type to serve it with. */
  readonly contentType: string;
  readonly playable: 'video' | 'audio' | false;
}

const media = (file: string, contentType: string, playable: MediaFile['playable']): MediaFile => ({
  file,
  href: `/media/${file}`,
  contentType,
  playable,
});

export const mediaFiles = {
  // H.264/AAC: Chromium builds without proprietary codecs (Debian's, Playwright's) cannot
  // play it, so the app should offer it as a download rather than in a player.
  mp4: media('sample-video.mp4', 'video/mp4', false),
  webm: media('sample-video.webm', 'video/webm', 'video'),
  wav: media('sample-melody.wav', 'audio/wav', 'audio'),
  ogg: media('sample-melody.ogg', 'audio/ogg', 'audio'),
  mp3: media('sample-melody.mp3', 'audio/mpeg', 'audio'),
  // Windows Media Audio: a real ASF file, which no browser plays.
  'x-ms-wma': media('sample-melody.wma', 'audio/x-ms-wma', false),
  html: media('sample-page.html', 'text/html; charset=utf-8', false),
} as const satisfies Record<string, MediaFile>;

export type MediaMimeType = keyof typeof mediaFiles;

/** The media file of a record's mime_type (case-insensitive), if there is one. */
export function mediaFileOf(mimeType: string | null | undefined): MediaFile | undefined {
  const key = (mimeType ?? '').trim().toLowerCase();
  return Object.hasOwn(mediaFiles, key) ? mediaFiles[key as MediaMimeType] : undefined;
}

/**
 * Shares of mime types among multimedia records: mostly MP4 video and web pages, as in
 * the upstream catalogue, with the other formats for variety.
 */
export const mimeTypeShares: readonly (readonly [MediaMimeType, number])[] = [
  ['mp4', 34],
  ['html', 16],
  ['webm', 12],
  ['x-ms-wma', 10],
  ['mp3', 10],
  ['wav', 9],
  ['ogg', 9],
];
