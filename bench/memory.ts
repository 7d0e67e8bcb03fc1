import { readFileSync } from 'node:fs';

/**
 * Resident memory of the server process (its worker threads included: they share the
 * process), from /proc: VmRSS now and VmHWM, the kernel's high-water mark.
 */

function field(pid: number, name: string): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

export const rssOf = (pid: number) => field(pid, 'VmRSS');
export const peakRssOf = (pid: number) => field(pid, 'VmHWM');

export interface MemorySampler {
  stop(): { samples: number; meanBytes: number; maxBytes: number };
}

export function sampleMemory(pid: number, everyMs = 200): MemorySampler {
  const samples: number[] = [];
  const timer = setInterval(() => {
    const rss = rssOf(pid);
    if (rss !== undefined) samples.push(rss);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return {
        samples: samples.length,
        meanBytes: Math.round(samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length)),
        maxBytes: Math.max(0, ...samples),
      };
    },
  };
}
