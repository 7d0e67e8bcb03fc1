import { useMemo, useState } from 'react';
import type { Playable } from './playable';

/**
 * An inline player for media the browser says it can play; otherwise, or when playback
 * fails, a download link instead.
 */
export function MediaPlayer({ href, playable, title }: { href: string; playable: Playable; title: string }) {
  const [failed, setFailed] = useState(false);
  const supported = useMemo(() => document.createElement(playable.element).canPlayType(playable.type) !== '', [playable]);

  if (!supported || failed) {
    return (
      <p className="media-fallback">
        {failed ? 'This media file could not be played here.' : 'Your browser cannot play this media type.'}{' '}
        <a href={href}>Download the media file</a>.
      </p>
    );
  }
  const Element = playable.element;
  return (
    <figure className={`media media--${playable.element}`}>
      <Element
        controls
        preload="metadata"
        src={href}
        aria-label={`${playable.element === 'video' ? 'Video' : 'Audio'}: ${title}`}
        onError={() => setFailed(true)}
      />
      <figcaption>
        {playable.element === 'video' ? 'Video' : 'Audio'} ({playable.type}). <a href={href}>Download</a>
      </figcaption>
    </figure>
  );
}
