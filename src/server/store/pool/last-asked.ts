/**
 * Who asked last, and the last to ask before it who was not the same: enough to tell in
 * constant time whether anyone but a given one has asked since a given time.
 */
export class LastAsked {
  private latest: { readonly who: string; at: number } | undefined;
  private before: { readonly who: string; readonly at: number } | undefined;

  asked(who: string, at: number): void {
    if (this.latest?.who === who) this.latest.at = at;
    else {
      this.before = this.latest;
      this.latest = { who, at };
    }
  }

  /** Whether anyone but `who` has asked at `since` or later. */
  othersSince(who: string, since: number): boolean {
    const other = this.latest?.who === who ? this.before : this.latest;
    return other !== undefined && other.at >= since;
  }
}
