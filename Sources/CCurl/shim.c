// See CCurl.h. The function pointers are set once, by tt_curl_load, before any transfer.
#include "CCurl.h"

#include <dlfcn.h>

typedef void CURL;

static void *library;
static int (*global_init)(long);
static CURL *(*easy_init)(void);
static void (*easy_cleanup)(CURL *);
static void (*easy_reset)(CURL *);
static int (*easy_setopt)(CURL *, int, ...);
static int (*easy_perform)(CURL *);
static int (*easy_getinfo)(CURL *, int, ...);
static void *(*slist_append)(void *, const char *);
static void (*slist_free_all)(void *);
static const char *(*easy_strerror)(int);

int tt_curl_load(void) {
    if (library) return 0;
    const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", 0};
    void *found = 0;
    for (int i = 0; names[i] && !found; i++) found = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!found) return -1;
    global_init = (int (*)(long))dlsym(found, "curl_global_init");
    easy_init = (CURL * (*)(void)) dlsym(found, "curl_easy_init");
    easy_cleanup = (void (*)(CURL *))dlsym(found, "curl_easy_cleanup");
    easy_reset = (void (*)(CURL *))dlsym(found, "curl_easy_reset");
    easy_setopt = (int (*)(CURL *, int, ...))dlsym(found, "curl_easy_setopt");
    easy_perform = (int (*)(CURL *))dlsym(found, "curl_easy_perform");
    easy_getinfo = (int (*)(CURL *, int, ...))dlsym(found, "curl_easy_getinfo");
    slist_append = (void *(*)(void *, const char *))dlsym(found, "curl_slist_append");
    slist_free_all = (void (*)(void *))dlsym(found, "curl_slist_free_all");
    easy_strerror = (const char *(*)(int))dlsym(found, "curl_easy_strerror");
    if (!global_init || !easy_init || !easy_cleanup || !easy_reset || !easy_setopt || !easy_perform || !easy_getinfo || !slist_append
        || !slist_free_all || !easy_strerror)
        return -2;
    library = found;
    // CURL_GLOBAL_DEFAULT.
    return global_init(3);
}

void *tt_curl_easy_init(void) { return easy_init(); }
void tt_curl_easy_cleanup(void *handle) { easy_cleanup(handle); }
void tt_curl_easy_reset(void *handle) { easy_reset(handle); }
int tt_curl_setopt_long(void *handle, int option, long value) { return easy_setopt(handle, option, value); }
int tt_curl_setopt_pointer(void *handle, int option, const void *value) { return easy_setopt(handle, option, value); }

int tt_curl_setopt_offset(void *handle, int option, int64_t value) {
    // curl_off_t is long on LP64 platforms, long long elsewhere.
#if defined(__LP64__)
    return easy_setopt(handle, option, (long)value);
#else
    return easy_setopt(handle, option, (long long)value);
#endif
}

int tt_curl_setopt_callback(void *handle, int option, tt_curl_data_callback callback) {
    return easy_setopt(handle, option, callback);
}

int tt_curl_perform(void *handle) { return easy_perform(handle); }
int tt_curl_getinfo_long(void *handle, int info, long *value) { return easy_getinfo(handle, info, value); }
int tt_curl_getinfo_string(void *handle, int info, const char **value) { return easy_getinfo(handle, info, value); }
void *tt_curl_slist_append(void *list, const char *text) { return slist_append(list, text); }
void tt_curl_slist_free_all(void *list) { slist_free_all(list); }
const char *tt_curl_strerror(int code) { return easy_strerror(code); }
