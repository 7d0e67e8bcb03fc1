/**
 * The media formats of MM records, which name theirs in `mime_type`, usually as a bare subtype
 * ("mp4", "x-wav", "x-ms-wma"), sometimes as a full type. A format with an element may play
 * inline if the browser says it can (canPlayType); every other one is offered as a file,
 * named so a reader knows what they get.
 */

export interface MediaFormat {
  /** How people name the format: "Windows Media Audio (WMA)". */
  readonly name: string;
  /** The full media type, for canPlayType and the download link. */
  readonly type: string;
  /** The element that plays it; none for a format no browser plays. */
  readonly element?: 'audio' | 'video';
  /** A web page, which the record's "Media file" link opens: no media to play or download. */
  readonly page?: true;
}

const audio = (name: string, type: string): MediaFormat => ({ name, type, element: 'audio' });
const video = (name: string, type: string): MediaFormat => ({ name, type, element: 'video' });

const wav = audio('WAV audio', 'audio/wav');
const mp3 = audio('MP3 audio', 'audio/mpeg');
const ogg = audio('Ogg audio', 'audio/ogg');
const wma = audio('Windows Media Audio (WMA)', 'audio/x-ms-wma');
const webm = video('WebM video', 'video/webm');
const oggVideo = video('Ogg video', 'video/ogg');
const mp4 = video('MP4 video', 'video/mp4');
const wmv = video('Windows Media Video (WMV)', 'video/x-ms-wmv');
const page: MediaFormat = { name: 'Web page', type: 'text/html', page: true };

const formats: Readonly<Record<string, MediaFormat>> = {
  wav,
  'x-wav': wav,
  mp3,
  mpeg: mp3,
  ogg,
  oga: ogg,
  'x-ms-wma': wma,
  wma,
  webm,
  ogv: oggVideo,
  mp4,
  'x-ms-wmv': wmv,
  wmv,
  html: page,
  'audio/wav': wav,
  'audio/x-wav': wav,
  'audio/mpeg': mp3,
  'audio/mp3': mp3,
  'audio/ogg': ogg,
  'audio/x-ms-wma': wma,
  'video/webm': webm,
  'video/ogg': oggVideo,
  'video/mp4': mp4,
  'video/x-ms-wmv': wmv,
  'text/html': page,
};

/** The record's media format; one the table does not know is named by what the record says and played by no element. */
export function mediaFormatOf(mimeType: string | undefined): MediaFormat | undefined {
  const key = mimeType?.trim().toLowerCase();
  if (!key) return undefined;
  if (Object.hasOwn(formats, key)) return formats[key];
  const type = key.includes('/') ? key : `application/${key}`;
  return { name: `${key.replace(/^[a-z]+\//, '')} media`, type };
}

/** Whether this browser says it may play the format inline ("maybe" and "probably" both count). */
export function canPlay(format: MediaFormat): boolean {
  return format.element !== undefined && document.createElement(format.element).canPlayType(format.type) !== '';
}
