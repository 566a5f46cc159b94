/* Device code: the file's device side as clang compiles it for --arch
 * (-O3, line tables), read through the LLVM C API. device.c runs the
 * compile beside libclang's parse; ir.c models the warp on what it emits. */
#ifndef WARPLINT_DEVICE_H
#define WARPLINT_DEVICE_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stddef.h>

#include "warplint.h"

typedef struct device_code {
  LLVMContextRef context;
  LLVMModuleRef module;
  LLVMTargetDataRef layout;
} device_code;

typedef struct device_job device_job;

/* Starts clang on path's device side (in the background); NULL with why
 * when it cannot start (no clang). */
device_job *device_start(const char *path, const char *const *extra_args, int extra_count, const wl_options *opt,
                         char *why, size_t why_size);
/* Waits for the compile and reads its module; false with why (clang's first
 * error) when there is no device code. Frees the job either way. */
bool device_finish(device_job *job, device_code *code, char *why, size_t why_size);
void device_free(device_code *code);

/* The next name in a make rule as clang and nvcc write it (-MD): names
 * apart by blanks, a backslash before a newline continues the line, one
 * before a blank or '#' keeps it in the name, "$$" is '$'. NULL at the
 * end. Names are cut out of the text at *at, in place. */
char *wl_next_dependency(char **at);

/* Once per process, before any thread makes a libclang index. */
void device_init(void);

/* The clang that compiles device code: WARPLINT_CLANG, else the one the build
 * found beside libclang; NULL when neither is executable. */
const char *device_clang(void);

/* The user's cache of precompiled headers: $WARPLINT_CACHE, else
 * $XDG_CACHE_HOME/warplint, else ~/.cache/warplint, made when missing;
 * false when there is none that can be written. */
bool wl_cache_folder(char *out, size_t size);

/* FNV-1a, the hash that names cached files; WL_FNV_START is the hash of nothing. */
#define WL_FNV_START 1469598103934665603ULL
unsigned long long wl_fnv(unsigned long long h, const void *data, size_t len);

#endif
