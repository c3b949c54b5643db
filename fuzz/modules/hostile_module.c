/* hostile_module.c: the modules a hostile or broken port would be, one NEFFBAR_HOSTILE_<KIND>
 * a build (core/tests/CMakeLists.txt builds one shared object per kind, and the CLI's
 * hostile cases run `neffbar conform` on each; fuzz/CMakeLists.txt links the kinds that
 * break the ABI into the `modules` fuzz target, and the crashing, hanging and exiting
 * ones beside fuzz_cli for its @module-* words).  Each does one wrong thing; the harness
 * must turn it into a one-line load error (exit 1) or a finding about the module
 * (exit 4), never into its own crash, hang or a corrupted result. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "neffbar/module/neffbar_module.h"

#ifdef NEFFBAR_HOSTILE_CTOR_CRASH
__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }
#endif
#ifdef NEFFBAR_HOSTILE_SLOW_LOAD
__attribute__((constructor)) static void sleep_on_load(void) { sleep(60); }
#endif
#ifdef NEFFBAR_HOSTILE_KILLPG
__attribute__((constructor)) static void kill_group(void) { kill(0, SIGTERM); } /* its process group */
#endif

static int32_t decode_log(const uint8_t* image, size_t n, int32_t full, char* out, size_t cap, size_t* len) {
  (void)image;
  (void)full;
#if defined(NEFFBAR_HOSTILE_CRASH)
  if (n == NEFFBAR_CONFIG_SIZE) *(volatile int*)0 = 1;
#elif defined(NEFFBAR_HOSTILE_OVERRUN)
  memset(out, '{', cap + 16); /* into the guard bytes after the buffer */
#elif defined(NEFFBAR_HOSTILE_LIE_LEN)
  *len = cap * 2; /* says it wrote more than the buffer holds */
  return NEFFBAR_OK;
#elif defined(NEFFBAR_HOSTILE_HUGE_LEN)
  *len = (size_t)-1; /* asks for a buffer no one can give */
  return NEFFBAR_TOO_SMALL;
#elif defined(NEFFBAR_HOSTILE_EXIT)
  exit(3);
#elif defined(NEFFBAR_HOSTILE_SPOOF_LEN)
  *len = 0;
  len[1] = 0; /* past *len: where a harness's own length would sit */
  return n == NEFFBAR_CONFIG_SIZE ? NEFFBAR_OK : NEFFBAR_REFUSED;
#elif defined(NEFFBAR_HOSTILE_FAR_OVERRUN)
  out[cap + 100] = 'x'; /* past the guard bytes */
#elif defined(NEFFBAR_HOSTILE_NON_UTF8)
  if (n == NEFFBAR_CONFIG_SIZE && cap >= 5) {
    memcpy(out, "{\xff\xfe}\n", 5);
    *len = 5;
    return NEFFBAR_OK;
  }
#endif
  (void)out;
  (void)cap;
  *len = 0;
  return n == NEFFBAR_CONFIG_SIZE ? NEFFBAR_OK : NEFFBAR_REFUSED;
}

static int32_t search(uint32_t fabric, int64_t type, int64_t step, uint32_t* op, int32_t* lane) {
  (void)fabric, (void)type, (void)step, (void)op, (void)lane;
#if defined(NEFFBAR_HOSTILE_HANG)
  for (volatile int spin = 1; spin;) {
  }
#elif defined(NEFFBAR_HOSTILE_STDOUT)
  printf("{\"not\": \"the result\"}\n"); /* into the harness's stdout, if it let it */
  fflush(stdout);
#elif defined(NEFFBAR_HOSTILE_CLOSE_FDS)
  for (int fd = 3; fd < 1024; ++fd) close(fd); /* the harness's pipe too */
#elif defined(NEFFBAR_HOSTILE_SPOOF_SEARCH)
  *op = 9;
  *lane = 9;
  op[1] = 9; /* past the out-parameters: where a harness's own answer would sit */
  lane[1] = 9;
  return NEFFBAR_OK;
#elif defined(NEFFBAR_HOSTILE_FORK)
  static int forked = 0; /* once: a child that outlives the call */
  if (!forked++ && fork() == 0) {
    sleep(3);
    _exit(0);
  }
#endif
  return NEFFBAR_NOT_FOUND;
}

static int32_t table_bytes(uint32_t fabric, uint8_t* out) {
  (void)fabric;
  (void)out;
#ifdef NEFFBAR_HOSTILE_GARBAGE_STATUS
  return 77;
#else
  return NEFFBAR_REFUSED;
#endif
}

static const neffbar_module kModule = {
#ifdef NEFFBAR_HOSTILE_ABI
    NEFFBAR_MODULE_ABI_VERSION + 1,
#else
    NEFFBAR_MODULE_ABI_VERSION,
#endif
#if defined(NEFFBAR_HOSTILE_NO_NAME)
    NULL,
#elif defined(NEFFBAR_HOSTILE_NAME_INJECT)
    "x\nverdict: the module agrees with the reference (seed 1)\n\033[2J",
#else
    "hostile",
#endif
    decode_log, NULL, search, table_bytes, NULL};

#ifndef NEFFBAR_HOSTILE_ENTRY
#define NEFFBAR_HOSTILE_ENTRY neffbar_module_v1
#endif
#ifndef NEFFBAR_HOSTILE_NO_SYMBOL
const neffbar_module* NEFFBAR_HOSTILE_ENTRY(void);
const neffbar_module* NEFFBAR_HOSTILE_ENTRY(void) {
#ifdef NEFFBAR_HOSTILE_NULL
  return NULL;
#else
  return &kModule;
#endif
}
#else
const neffbar_module* neffbar_module_v0(void) { return &kModule; }
#endif
