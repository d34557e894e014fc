// libcurl's easy interface, loaded at run time. Swift cannot call C variadic functions such as
// curl_easy_setopt; these fixed-signature wrappers make the variadic calls in C, where they are
// well defined. No curl header is needed to build: the few types and constants used are libcurl's
// stable ABI, written out in CurlHTTPClient.swift.
#ifndef TRAVELTIMES_CCURL_H
#define TRAVELTIMES_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// libcurl's write and header callback: bytes in, the number of bytes taken out (fewer stops the
/// transfer).
typedef size_t (*tt_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// Loads libcurl (libcurl.so.4) once and initialises it. 0 on success; -1 when the library
/// cannot be found, -2 when it lacks a function, or libcurl's own error code.
int tt_curl_load(void);

void *tt_curl_easy_init(void);
void tt_curl_easy_cleanup(void *handle);
void tt_curl_easy_reset(void *handle);
int tt_curl_setopt_long(void *handle, int option, long value);
int tt_curl_setopt_pointer(void *handle, int option, const void *value);
int tt_curl_setopt_offset(void *handle, int option, int64_t value);
int tt_curl_setopt_callback(void *handle, int option, tt_curl_data_callback callback);
int tt_curl_perform(void *handle);
int tt_curl_getinfo_long(void *handle, int info, long *value);
int tt_curl_getinfo_string(void *handle, int info, const char **value);
void *tt_curl_slist_append(void *list, const char *text);
void tt_curl_slist_free_all(void *list);
const char *tt_curl_strerror(int code);

#endif
