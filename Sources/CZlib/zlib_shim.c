// See CZlib.h. The function pointers are set once, by tt_zlib_load, before any stream is made.
#include "CZlib.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

// zlib's z_stream, as every zlib 1.x lays it out.
typedef struct {
    const unsigned char *next_in;
    unsigned avail_in;
    unsigned long total_in;
    unsigned char *next_out;
    unsigned avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} tt_z_stream;

enum { Z_OK = 0, Z_STREAM_END = 1, Z_NO_FLUSH = 0, Z_BUF_ERROR = -5 };

static void *library;
static int (*inflate_init2)(tt_z_stream *, int, const char *, int);
static int (*inflate_call)(tt_z_stream *, int);
static int (*inflate_end)(tt_z_stream *);
static unsigned long (*crc32_call)(unsigned long, const unsigned char *, unsigned);

int tt_zlib_load(void) {
    if (library) return 0;
    const char *names[] = {"libz.so.1", "libz.so", 0};
    void *found = 0;
    for (int i = 0; names[i] && !found; i++) found = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!found) return -1;
    inflate_init2 = (int (*)(tt_z_stream *, int, const char *, int))dlsym(found, "inflateInit2_");
    inflate_call = (int (*)(tt_z_stream *, int))dlsym(found, "inflate");
    inflate_end = (int (*)(tt_z_stream *))dlsym(found, "inflateEnd");
    crc32_call = (unsigned long (*)(unsigned long, const unsigned char *, unsigned))dlsym(found, "crc32");
    if (!inflate_init2 || !inflate_call || !inflate_end || !crc32_call) return -2;
    library = found;
    return 0;
}

void *tt_inflate_new(void) {
    if (!library) return 0;
    tt_z_stream *stream = calloc(1, sizeof(tt_z_stream));
    if (!stream) return 0;
    // "1" is the major version zlib checks; -15: raw deflate, a 32 KiB window.
    if (inflate_init2(stream, -15, "1.2.11", (int)sizeof(tt_z_stream)) != Z_OK) {
        free(stream);
        return 0;
    }
    return stream;
}

int tt_inflate(void *opaque, const uint8_t *input, size_t input_count, size_t *consumed, uint8_t *output, size_t output_count,
    size_t *produced) {
    tt_z_stream *stream = opaque;
    unsigned in = input_count > UINT_MAX ? UINT_MAX : (unsigned)input_count;
    unsigned out = output_count > UINT_MAX ? UINT_MAX : (unsigned)output_count;
    stream->next_in = input;
    stream->avail_in = in;
    stream->next_out = output;
    stream->avail_out = out;
    int result = inflate_call(stream, Z_NO_FLUSH);
    *consumed = in - stream->avail_in;
    *produced = out - stream->avail_out;
    if (result == Z_STREAM_END) return 1;
    // No progress possible for want of input or room: not an error, the caller gives more.
    if (result == Z_OK || result == Z_BUF_ERROR) return 0;
    return result < 0 ? result : -99;
}

void tt_inflate_free(void *opaque) {
    tt_z_stream *stream = opaque;
    if (!stream) return;
    inflate_end(stream);
    free(stream);
}

uint32_t tt_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    unsigned long value = crc;
    while (count > 0) {
        unsigned chunk = count > UINT_MAX ? UINT_MAX : (unsigned)count;
        value = crc32_call(value, bytes, chunk);
        bytes += chunk;
        count -= chunk;
    }
    return (uint32_t)value;
}
