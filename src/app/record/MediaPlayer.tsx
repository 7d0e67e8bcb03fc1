import { useEffect, useMemo, useRef, useState } from 'react';
import { linkAtTime, mediaStartOf } from './media-time';
import type { Playable } from './playable';

/**
 * An inline player for media the browser says it can play; otherwise, or when playback
 * fails, a download link instead. A page address ending in `#t=90` starts the player at
 * that time, and "Copy link at current time" makes such an address.
 */
export function MediaPlayer({ href, playable, title }: { href: string; playable: Playable; title: string }) {
  const [failed, setFailed] = useState(false);
  const [copied, setCopied] = useState('');
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const supported = useMemo(() => document.createElement(playable.element).canPlayType(playable.type) !== '', [playable]);

  useEffect(() => {
    const element = media.current;
    if (!element) return;
    const seek = () => {
      const start = mediaStartOf(window.location.hash);
      if (start !== undefined && element.readyState >= HTMLMediaElement.HAVE_METADATA && start < element.duration)
        element.currentTime = start;
    };
    seek();
    element.addEventListener('loadedmetadata', seek);
    window.addEventListener('hashchange', seek);
    return () => {
      element.removeEventListener('loadedmetadata', seek);
      window.removeEventListener('hashchange', seek);
    };
  }, [supported, failed]);

  async function copyLink() {
    const link = linkAtTime(window.location.href, media.current?.currentTime ?? 0);
    try {
      await navigator.clipboard.writeText(link);
      setCopied(`Link copied: ${link}`);
    } catch {
      setCopied(`Copy this link: ${link}`);
    }
  }

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
        ref={media}
        controls
        preload="metadata"
        src={href}
        aria-label={`${playable.element === 'video' ? 'Video' : 'Audio'}: ${title}`}
        onError={() => setFailed(true)}
      />
      <figcaption>
        {playable.element === 'video' ? 'Video' : 'Audio'} ({playable.type}). <a href={href}>Download</a>{' '}
        <button type="button" className="button" onClick={() => void copyLink()}>
          Copy link at current time
        </button>
        <span className="media__copied" role="status">
          {copied}
        </span>
      </figcaption>
    </figure>
  );
}
