/* neffbar_module.h: the C ABI through which an implementation of the NEFF barrier
 * interface (a port of the host encoder, a firmware-side parser, a simulator's
 * semaphore model) is put under the harness, as cryptofuzz's modules are.  C11 and
 * C++ include it as it is; Rust, Zig and Go bind it through `extern "C"`.
 *
 * Contract:
 *  - A module exports one function, `neffbar_module_v1`, returning a pointer to a
 *    static `neffbar_module` whose `abi_version` is NEFFBAR_MODULE_ABI_VERSION.  The
 *    harness refuses any other version (neffbar conform: exit 1).
 *  - Every operation is optional: a null pointer means "not implemented", and the
 *    harness skips it (it never counts as a disagreement).
 *  - Errors are values (neffbar_status).  An operation never aborts on bad input: it
 *    returns NEFFBAR_REFUSED.  A module that crashes, hangs, writes past a buffer it
 *    was given or returns a status outside the enum is a finding, not a harness
 *    failure.
 *  - Output buffers: the harness passes `cap` bytes; the module writes at most `cap`
 *    bytes and sets `*len` to what it wrote (NEFFBAR_TOO_SMALL when it needs more).
 *  - No state between calls is required; the harness may call from one thread only.
 *
 * The facts each operation must reproduce (layout, tables, semaphores) are in
 * core/neffbar/README.md, each with its binary, address and confidence tag; the test
 * vectors under corpus/vectors/ pin them, one vector per fact or trap. */
#ifndef NEFFBAR_MODULE_H
#define NEFFBAR_MODULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NEFFBAR_MODULE_ABI_VERSION 1u
#define NEFFBAR_CONFIG_SIZE 0x128u     /* neff_barrier_configs_t, host and device views at one base */
#define NEFFBAR_TABLE_SIZE 132u        /* algorithm_steps[4][4]{u32 type, u32 op} + barrier_step_sizes[4] */

typedef enum neffbar_status {
  NEFFBAR_OK = 0,
  NEFFBAR_NOT_FOUND = 1,   /* search: the type has no entry in that step */
  NEFFBAR_BLOCKED = 2,     /* sema_apply: the wait does not release; the file is unchanged */
  NEFFBAR_OVERFLOW = 3,    /* sema_apply: the result leaves int32; the file is unchanged */
  NEFFBAR_REFUSED = 4,     /* the input is not valid for the operation (length, JSON, range) */
  NEFFBAR_TOO_SMALL = 5    /* the output buffer is too small */
} neffbar_status;

typedef enum neffbar_fabric { NEFFBAR_FABRIC_DEFAULT = 0, NEFFBAR_FABRIC_SWITCH = 1 } neffbar_fabric;

/* The six TOP_SP primitives of libnrt (add_semaphore_*). */
typedef enum neffbar_prim {
  NEFFBAR_INC = 0,                /* +1 */
  NEFFBAR_INC_VAL = 1,            /* +value */
  NEFFBAR_WAIT_GE_AND_DEC = 2,    /* block until >= value (or > value, see compare), then -dec */
  NEFFBAR_WAIT_GE = 3,            /* block until >= value (or > value) */
  NEFFBAR_WAIT_EQ_AND_INC = 4,    /* block until == value, then +1 */
  NEFFBAR_WAIT_EQ_AND_CLEAR = 5   /* block until == value, then = 0 */
} neffbar_prim;

/* How the GE primitives compare: the encoder's mode 5 is >=, the device spin loop
 * releases on > (the hypothesis C4 of the README decides between them). */
typedef enum neffbar_compare { NEFFBAR_COMPARE_GE = 0, NEFFBAR_COMPARE_GT = 1 } neffbar_compare;

typedef struct neffbar_sema_op {
  uint32_t prim;   /* neffbar_prim */
  uint32_t sema;   /* index into the semaphore file */
  int64_t value;   /* increment (INC_VAL) or the compare value (waits) */
  int64_t dec;     /* WAIT_GE_AND_DEC: the amount removed on release */
} neffbar_sema_op;

typedef struct neffbar_module {
  uint32_t abi_version;  /* NEFFBAR_MODULE_ABI_VERSION */
  const char* name;      /* e.g. "c11-port 0.3"; shown in every line the harness prints */

  /* The 0x128-byte image to the libncfw JSON log (full != 0: with total_desc_n, the
   * padding and the reserved bytes, a lossless log).  Any length but 0x128: REFUSED. */
  int32_t (*decode_log)(const uint8_t* image, size_t image_len, int32_t full, char* out, size_t cap,
                        size_t* len);
  /* A JSON log (default or full) back to the 0x128-byte image; out holds
   * NEFFBAR_CONFIG_SIZE bytes.  A log that is not one: REFUSED. */
  int32_t (*encode_log)(const char* log, size_t log_len, uint8_t* out);
  /* search_barr_type_in_step: the op (barrier_operation_t) and lane of `type` in
   * `step` of the fabric's table, or NOT_FOUND. */
  int32_t (*search)(uint32_t fabric, int64_t type, int64_t step, uint32_t* op, int32_t* lane);
  /* The fabric's table as .rodata holds it: NEFFBAR_TABLE_SIZE bytes into out. */
  int32_t (*table_bytes)(uint32_t fabric, uint8_t* out);
  /* One primitive on a semaphore file of n signed 32-bit values: OK (file updated),
   * BLOCKED or OVERFLOW (file unchanged), REFUSED (sema >= n, prim or compare unknown). */
  int32_t (*sema_apply)(int32_t* file, size_t n, const neffbar_sema_op* op, uint32_t compare);
} neffbar_module;

/* The one symbol a module exports. */
typedef const neffbar_module* (*neffbar_module_entry)(void);
#define NEFFBAR_MODULE_ENTRY "neffbar_module_v1"

#ifdef __cplusplus
}
#endif

#endif /* NEFFBAR_MODULE_H */
