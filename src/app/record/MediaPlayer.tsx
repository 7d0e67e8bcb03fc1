import { useEffect, useMemo, useRef, useState } from 'react';
import { linkAtTime, mediaStartOf } from './media-time';
import { canPlay, type MediaFormat } from './playable';

/**
 * An inline player for media the browser says it can play. A format it cannot play (Windows
 * Media Audio, or MP4 in a browser without its codecs), or playback that fails, is said so by
 * name, with the file to download instead: never a player that cannot play. A web page is no
 * media: the record's "Media file" link opens it. A page address ending in `#t=90` starts the
 * player at that time, and "Copy link at current time" makes such an address.
 */
export function MediaPlayer({ href, format, title }: { href: string; format: MediaFormat; title: string }) {
  const [failed, setFailed] = useState(false);
  const [copied, setCopied] = useState('');
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const supported = useMemo(() => canPlay(format), [format]);

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

  if (format.page) return null;
  if (!supported || failed || !format.element) {
    return (
      <div className="media-fallback">
        <p>
          <strong>{failed ? `This ${format.name} file could not be played here.` : `Your browser cannot play ${format.name}.`}</strong>{' '}
          Download the file to play it with a program that can.
        </p>
        <a className="button" href={href} type={format.type}>
          Download the {format.name} file
        </a>
      </div>
    );
  }
  const Element = format.element;
  return (
    <figure className={`media media--${format.element}`}>
      <Element
        ref={media}
        controls
        preload="metadata"
        src={href}
        aria-label={`${format.element === 'video' ? 'Video' : 'Audio'}: ${title}`}
        onError={() => setFailed(true)}
      />
      <figcaption>
        {format.name}. <a href={href}>Download</a>{' '}
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
