/**
 * A masked IBAN ("DE** **** **** **** **30 00") in groups of four counted from its end, so that the
 * four characters the customer recognises stay one group: "DE **** **** **** **** 3000". Counted
 * from the start (the paper format), those four were split over two groups, and a line break between
 * them read as "**30 / 00".
 */
export function ibanGroups(masked: string): string[] {
  const compact = masked.replace(/\s+/g, '');
  const groups: string[] = [];
  for (let end = compact.length; end > 0; end -= 4) groups.unshift(compact.slice(Math.max(0, end - 4), end));
  return groups;
}
