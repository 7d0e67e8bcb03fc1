import { isIPv6 } from 'node:net';

/**
 * The client a request is counted against when the store shares its workers between
 * clients (store/pool/scheduler.ts): its remote address. One IPv6 host commonly holds a
 * whole /64 and may use any address in it, so an IPv6 client is its /64; an IPv4 address
 * written in IPv6 form is the IPv4 address.
 */
export function clientOfAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = address.includes('::') && tail !== '' ? tail.split(':') : [];
  const groups = address.includes('::') ? [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
