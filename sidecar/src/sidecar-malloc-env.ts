/**
 * glibc settings the sidecar is started with (glibc reads them only at process start). By default glibc raises
 * its mmap threshold after a large block is freed, so the next large Buffers come from arenas that keep their
 * pages once freed: RSS then stays at a conversion's peak after the converter thread is gone. A fixed
 * threshold gives every block of 128 KiB or more its own mapping, returned to the system when freed.
 */
export const SIDECAR_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: "131072" } as const;
