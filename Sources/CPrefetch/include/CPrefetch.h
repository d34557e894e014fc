// The processor's prefetch hint, which Swift cannot spell: a read of a year of history asks for
// the next span's records while it checks this one's.
#ifndef TRAVELTIMES_CPREFETCH_H
#define TRAVELTIMES_CPREFETCH_H

/// Asks for the cache line holding `address` to be read ahead; never faults, whatever the address.
static inline void tt_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
