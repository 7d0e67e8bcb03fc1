/**
 * Media fragment times (W3C Media Fragments, the `t=` dimension, start only): `#t=90`,
 * `#t=90.5`, `#t=1:30`, `#t=1:02:03`, `#t=npt:90`, `#t=90,120`. Anything else is no time.
 */
export function mediaStartOf(hash: string): number | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get('t');
  const match = value && /^(?:npt:)?(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)(?:,.*)?$/.exec(value.trim());
  if (!match) return undefined;
  const [, a, b, s] = match;
  const [hours, minutes] = b !== undefined ? [Number(a), Number(b)] : [0, Number(a ?? 0)];
  if (b !== undefined && Number(b) >= 60) return undefined;
  const seconds = hours * 3600 + minutes * 60 + Number(s);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** The page's address pointing at a time in its media, to the whole second. */
export function linkAtTime(href: string, seconds: number): string {
  const url = new URL(href);
  url.hash = `t=${Math.floor(Math.max(0, seconds))}`;
  return url.href;
}
