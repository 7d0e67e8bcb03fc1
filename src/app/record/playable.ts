/**
 * Which records' media the browser may play inline. MM records name their format in
 * `mime_type`, usually as a bare subtype ("mp4", "x-wav"), sometimes as a full type.
 * Anything not listed (html, x-ms-wma, …) is offered as a download only.
 */

export interface Playable {
  readonly element: 'audio' | 'video';
  /** The full media type, for <source type> and canPlayType. */
  readonly type: string;
}

const playableTypes: Readonly<Record<string, Playable>> = {
  wav: { element: 'audio', type: 'audio/wav' },
  'x-wav': { element: 'audio', type: 'audio/wav' },
  mp3: { element: 'audio', type: 'audio/mpeg' },
  mpeg: { element: 'audio', type: 'audio/mpeg' },
  ogg: { element: 'audio', type: 'audio/ogg' },
  oga: { element: 'audio', type: 'audio/ogg' },
  'audio/wav': { element: 'audio', type: 'audio/wav' },
  'audio/x-wav': { element: 'audio', type: 'audio/wav' },
  'audio/mpeg': { element: 'audio', type: 'audio/mpeg' },
  'audio/mp3': { element: 'audio', type: 'audio/mpeg' },
  'audio/ogg': { element: 'audio', type: 'audio/ogg' },
  webm: { element: 'video', type: 'video/webm' },
  ogv: { element: 'video', type: 'video/ogg' },
  mp4: { element: 'video', type: 'video/mp4' },
  'video/webm': { element: 'video', type: 'video/webm' },
  'video/ogg': { element: 'video', type: 'video/ogg' },
  'video/mp4': { element: 'video', type: 'video/mp4' },
};

export function playableOf(mimeType: string | undefined): Playable | undefined {
  if (!mimeType) return undefined;
  return playableTypes[mimeType.trim().toLowerCase()];
}
