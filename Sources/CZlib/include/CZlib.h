// zlib's raw inflate, loaded at run time (libz.so.1), for reading zip archives (GTFS timetables).
// No zlib header is needed to build: z_stream's layout and the few constants used are zlib's
// stable ABI, written out in zlib_shim.c.
#ifndef TRAVELTIMES_CZLIB_H
#define TRAVELTIMES_CZLIB_H

#include <stddef.h>
#include <stdint.h>

/// Loads zlib once. 0 on success; -1 when the library cannot be found, -2 when it lacks a function.
int tt_zlib_load(void);

/// A raw-deflate stream (no zlib or gzip wrapper: windowBits -15), or NULL when it cannot be made.
void *tt_inflate_new(void);

/// Inflates from `input` into `output`: sets how much of each was used. Returns 0 while more may
/// come, 1 at the end of the deflate stream, and a negative zlib code for data that is not deflate.
int tt_inflate(void *stream, const uint8_t *input, size_t input_count, size_t *consumed, uint8_t *output, size_t output_count,
    size_t *produced);

void tt_inflate_free(void *stream);

/// zlib's CRC-32 of `count` bytes, continuing from `crc` (0 to start).
uint32_t tt_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

#endif
