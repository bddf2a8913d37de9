const MIB = 1024 * 1024;

/** A byte count as messages show it: whole MiB, or KiB rounded up below one MiB. */
export const formatSize = (bytes: number): string => (bytes >= MIB ? `${Math.round(bytes / MIB)} MiB` : `${Math.ceil(bytes / 1024)} KiB`);
