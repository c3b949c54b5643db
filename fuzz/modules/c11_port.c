/* c11_port.c: an independent port of the NEFF barrier interface in plain C11, written
 * from the facts of core/neffbar/README.md alone (layout, JSON log, tables, search,
 * semaphores); it includes the module ABI and nothing of the reference.  It implements
 * decode_log, search, table_bytes and sema_apply; encode_log (a strict JSON reader) it
 * leaves out, as a module may.
 *
 * Built as it is, it agrees with the reference on everything it implements (ctest
 * module_c11_port_conforms).  Built with one NEFFBAR_TRAP_<NAME> defined, it falls into
 * that trap of the sources, and `neffbar conform` and its differential fuzz target must
 * name the trap's flag (fuzz/modules/README.md lists them). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "neffbar/module/neffbar_module.h"

/* ------------------------------------------------------------------------- layout -- */
/* neff_barrier_configs_t, 0x128 bytes, packed, little-endian: barrier_step_config[4]
 * (stride 0x34) at 0, then the device fields, total_desc_n at 0x11C (not logged), the
 * gate bit at 0x124, 7 reserved bits, 3 reserved bytes.  The host view overlays the
 * first 16 bytes: one struct at one base. */
#ifdef NEFFBAR_TRAP_TWO_BASES
#define DEVICE_BASE 0x10u /* the trap: host_barrier as its own 16-byte sub-struct before the device view */
#else
#define DEVICE_BASE 0x00u
#endif
#define D(off) (DEVICE_BASE + (off))
#ifdef NEFFBAR_TRAP_MIRRORED_0x124
#define AFTER_DESC_COUNT 0x11Cu /* the trap: the struct mirrored from the log, total_desc_n missing */
#else
#define AFTER_DESC_COUNT 0x120u
#endif
#define GATE_AT D(AFTER_DESC_COUNT + 4u)

/* n bytes little-endian at `off` of the image; a byte past the image reads as 0 (only a
 * trap's layout reaches there). */
static uint64_t le(const uint8_t* b, unsigned off, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i)
    if (off + i < NEFFBAR_CONFIG_SIZE) v |= (uint64_t)b[off + i] << (8 * i);
  return v;
}

/* The log's text, appended to a bounded buffer; the length needed is counted on. */
typedef struct {
  char* out;
  size_t cap, len;
} text;

static void put(text* t, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text* t, const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  if (t->len + (size_t)n <= t->cap) memcpy(t->out + t->len, buf, (size_t)n);
  t->len += (size_t)n;
}

static void addr(text* t, const char* indent, const char* key, uint64_t v, const char* end) {
  put(t, "%s\"%s\": { \"addr\": { \"soc_addr\": \"0x%016" PRIX64 "\" } }%s\n", indent, key, v, end);
}

static int32_t decode_log(const uint8_t* b, size_t n, int32_t full, char* out, size_t cap, size_t* len) {
  if (n != NEFFBAR_CONFIG_SIZE) return NEFFBAR_REFUSED;
  text t = {out, cap, 0};
#ifdef NEFFBAR_TRAP_GATE_WHOLE_BYTE
  const unsigned gate = (unsigned)le(b, GATE_AT, 1); /* the trap: the byte, not its bit 0 */
#else
  const unsigned gate = (unsigned)le(b, GATE_AT, 1) & 1u;
#endif
#ifdef NEFFBAR_TRAP_GATE_AS_BOOL
  put(&t, "{\n  \"execute_device_barrier\": %u,\n", gate); /* the trap: a boolean, not %%p */
#else
  put(&t, "{\n  \"execute_device_barrier\": \"0x%X\",\n", gate);
#endif
  put(&t, "  \"host_barrier\": {\n");
  addr(&t, "    ", "barrier_start", le(b, 0, 8), ",");
  addr(&t, "    ", "barrier_done", le(b, 8, 8), "");
  put(&t, "  },\n  \"device_barrier\": {\n    \"barrier_step_config\": [\n");
  for (unsigned s = 0; s < 4; ++s) {
    const unsigned p = D(s * 0x34u);
    put(&t, "      {\n        \"m2s_val\": %u,\n        \"s2m_val\": %u,\n        \"barrier_sema\": [\n",
        (unsigned)le(b, p, 2), (unsigned)le(b, p + 2, 2));
    for (unsigned l = 0; l < 4; ++l)
      put(&t, "          { \"addr\": { \"soc_addr\": \"0x%016" PRIX64 "\" } }%s\n", le(b, p + 4 + 8 * l, 8), l < 3 ? "," : "");
    put(&t, "        ],\n        \"target_sema_val\": [%u, %u, %u, %u]\n      }%s\n", (unsigned)le(b, p + 0x24, 4),
        (unsigned)le(b, p + 0x28, 4), (unsigned)le(b, p + 0x2C, 4), (unsigned)le(b, p + 0x30, 4), s < 3 ? "," : "");
  }
  put(&t, "    ],\n    \"dma_sync_sema\": [\n");
  for (unsigned l = 0; l < 4; ++l)
    put(&t, "      { \"addr\": { \"soc_addr\": \"0x%016" PRIX64 "\" } }%s\n", le(b, D(0xD0 + 8 * l), 8), l < 3 ? "," : "");
  put(&t, "    ],\n    \"dma_apb_bcast\": {\n");
  addr(&t, "      ", "m2s_tail_ptr", le(b, D(0xF0), 8), ",");
  addr(&t, "      ", "s2m_tail_ptr", le(b, D(0xF8), 8), ",");
  put(&t, "      \"mask\": %u\n    },\n", (unsigned)le(b, D(0x100), 4));
  addr(&t, "    ", "start_network_proxy", le(b, D(0x104), 8), ",");
  put(&t, "    \"dma_sync_sema_value\": %u,\n    \"tdrbp_low\": %u,\n    \"tdrbp_high\": %u,\n    \"desc_count\": %u,\n",
      (unsigned)le(b, D(0x10C), 4), (unsigned)le(b, D(0x110), 4), (unsigned)le(b, D(0x114), 4),
      (unsigned)le(b, D(0x118), 4));
  if (full) put(&t, "    \"total_desc_n\": %u,\n", (unsigned)le(b, D(0x11C), 4));
  put(&t, "    \"dma_engines_bitmap\": %u,\n    \"queue_id\": %u", (unsigned)le(b, D(AFTER_DESC_COUNT), 2),
      (unsigned)le(b, D(AFTER_DESC_COUNT + 2), 1));
  if (full) {
    put(&t, ",\n    \"__pad\": %u\n  },\n", (unsigned)le(b, D(AFTER_DESC_COUNT + 3), 1));
    put(&t, "  \"__reserved0\": %u,\n  \"__reserved\": [%u, %u, %u]\n}\n", (unsigned)(le(b, GATE_AT, 1) >> 1),
        (unsigned)b[0x125], (unsigned)b[0x126], (unsigned)b[0x127]);
  } else {
    put(&t, "\n  }\n}\n");
  }
  *len = t.len;
  return t.len <= cap ? NEFFBAR_OK : NEFFBAR_TOO_SMALL;
}

/* ------------------------------------------------------------------------- tables -- */
/* libnrt .rodata: [step][entry] = {u32 type, u32 op}, inactive (7,2); sizes per step. */
typedef struct {
  uint32_t type, op;
} entry;
static const entry kDefault[4][4] = {{{0, 0}, {7, 2}, {7, 2}, {7, 2}},
                                     {{1, 0}, {2, 0}, {3, 0}, {4, 0}},
                                     {{1, 1}, {2, 1}, {3, 1}, {4, 1}},
                                     {{0, 1}, {7, 2}, {7, 2}, {7, 2}}};
static const uint8_t kDefaultSizes[4] = {1, 4, 4, 1};
static const entry kSwitch[4][4] = {{{0, 0}, {7, 2}, {7, 2}, {7, 2}},
                                    {{5, 0}, {6, 0}, {7, 2}, {7, 2}},
                                    {{5, 1}, {6, 1}, {7, 2}, {7, 2}},
                                    {{0, 1}, {7, 2}, {7, 2}, {7, 2}}};
static const uint8_t kSwitchSizes[4] = {1, 2, 2, 1};

static int32_t table_bytes(uint32_t fabric, uint8_t* out) {
  if (fabric > 1) return NEFFBAR_REFUSED;
  const entry(*t)[4] = fabric ? kSwitch : kDefault;
  for (unsigned s = 0; s < 4; ++s)
    for (unsigned e = 0; e < 4; ++e)
      for (unsigned i = 0; i < 4; ++i) {
        out[s * 32 + e * 8 + i] = (uint8_t)(t[s][e].type >> (8 * i));
        out[s * 32 + e * 8 + 4 + i] = (uint8_t)(t[s][e].op >> (8 * i));
      }
  memcpy(out + 128, fabric ? kSwitchSizes : kDefaultSizes, 4);
  return NEFFBAR_OK;
}

/* search_barr_type_in_step: the first of the step's active entries whose type matches.
 * Out of range (the binary has no check): not found. */
static int32_t search(uint32_t fabric, int64_t type, int64_t step, uint32_t* op, int32_t* lane) {
  if (fabric > 1) return NEFFBAR_REFUSED;
  if (step < 0 || step > 3) return NEFFBAR_NOT_FOUND;
#ifdef NEFFBAR_TRAP_TYPE_AS_SEMA_ID
  /* the trap: field 0 read as a sema id, so BARRIER_DMA_SYNC (4) and HOST_BARRIER_ID0/1 (6, 7) are "not barriers" */
  if (type == 4 || type == 6 || type == 7) return NEFFBAR_NOT_FOUND;
#endif
#ifdef NEFFBAR_TRAP_FIELD1_NOP
  const unsigned n = 4; /* the trap: field 1 read as signal/wait/nop, so the (7,2) pads are harmless "nop" entries */
#else
  if (type < 0 || type > 6) return NEFFBAR_NOT_FOUND;
  const unsigned n = (fabric ? kSwitchSizes : kDefaultSizes)[step];
#endif
  const entry(*t)[4] = fabric ? kSwitch : kDefault;
  for (unsigned e = 0; e < n; ++e)
    if ((int64_t)t[step][e].type == type) {
      *op = t[step][e].op;
      *lane = (int32_t)e;
      return NEFFBAR_OK;
    }
  return NEFFBAR_NOT_FOUND;
}

/* --------------------------------------------------------------------- semaphores -- */
/* Signed 32-bit values; a blocked or overflowing primitive changes nothing. */
static int32_t sema_apply(int32_t* file, size_t n, const neffbar_sema_op* op, uint32_t compare) {
  if (op->sema >= n || op->prim > NEFFBAR_WAIT_EQ_AND_CLEAR || compare > NEFFBAR_COMPARE_GT) return NEFFBAR_REFUSED;
  const int64_t v = file[op->sema];
  const int ge = compare == NEFFBAR_COMPARE_GE ? v >= op->value : v > op->value;
  int64_t next = v;
  switch (op->prim) {
    case NEFFBAR_INC: next = v + 1; break;
    case NEFFBAR_INC_VAL: next = v + op->value; break;
    case NEFFBAR_WAIT_GE_AND_DEC:
      if (!ge) return NEFFBAR_BLOCKED;
#ifdef NEFFBAR_TRAP_DEC_BY_VALUE
      next = v - op->value; /* the trap: the threshold removed, not the decrement */
#else
      next = v - op->dec;
#endif
      break;
    case NEFFBAR_WAIT_GE:
      if (!ge) return NEFFBAR_BLOCKED;
      break;
    case NEFFBAR_WAIT_EQ_AND_INC:
      if (v != op->value) return NEFFBAR_BLOCKED;
      next = v + 1;
      break;
    default:
      if (v != op->value) return NEFFBAR_BLOCKED;
      next = 0;
  }
#ifdef NEFFBAR_TRAP_SEMA_WRAP
  file[op->sema] = (int32_t)(uint32_t)next; /* the trap: wraps instead of reporting the overflow */
#else
  if (next < INT32_MIN || next > INT32_MAX) return NEFFBAR_OVERFLOW;
  file[op->sema] = (int32_t)next;
#endif
  return NEFFBAR_OK;
}

#ifndef NEFFBAR_MODULE_NAME
#define NEFFBAR_MODULE_NAME "c11-port"
#endif

static const neffbar_module kModule = {NEFFBAR_MODULE_ABI_VERSION, NEFFBAR_MODULE_NAME, decode_log, NULL, search,
                                       table_bytes, sema_apply};

/* NEFFBAR_PORT_ENTRY renames the entry, so that the fuzz target `module` links the port
 * and every trap into one binary; a module of its own keeps neffbar_module_v1. */
#ifndef NEFFBAR_PORT_ENTRY
#define NEFFBAR_PORT_ENTRY neffbar_module_v1
#endif
const neffbar_module* NEFFBAR_PORT_ENTRY(void);
const neffbar_module* NEFFBAR_PORT_ENTRY(void) { return &kModule; }
