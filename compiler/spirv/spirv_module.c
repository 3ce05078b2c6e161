/* spirv_module.c — see spirv_module.h. */
#include "spirv_module.h"

#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- word buffers */

static void oom(void) {
  fputs("kcc: fatal error: out of memory\n", stderr);
  exit(1);
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom();
  return q;
}

static void spw_reserve(SpvWords *b, size_t extra) {
  if (b->n + extra <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->n + extra) cap *= 2;
  b->w = xrealloc(b->w, cap * sizeof *b->w);
  b->cap = cap;
}

void spw_push(SpvWords *b, uint32_t word) {
  spw_reserve(b, 1);
  b->w[b->n++] = word;
}

void spw_append(SpvWords *b, const uint32_t *words, size_t n) {
  if (!n) return;
  spw_reserve(b, n);
  memcpy(b->w + b->n, words, n * sizeof *words);
  b->n += n;
}

bool spw_inst(SpvWords *b, SpvOp op, const uint32_t *ops, int nops) {
  if (nops + 1 > 0xffff) return false;
  spw_push(b, ((uint32_t)(nops + 1) << SpvWordCountShift) | (uint32_t)op);
  spw_append(b, ops, (size_t)nops);
  return true;
}

int spw_string_words(const char *s) {
  return (int)(strlen(s) / 4 + 1);
}

void spw_string(SpvWords *b, const char *s) {
  size_t len = strlen(s);
  int nw = spw_string_words(s);
  for (int i = 0; i < nw; i++) {
    uint32_t w = 0;
    for (int j = 0; j < 4; j++) {
      size_t k = (size_t)i * 4 + (size_t)j;
      uint32_t byte = k < len ? (unsigned char)s[k] : 0;
      w |= byte << (8 * j); /* SPIR-V strings are little-endian within each word */
    }
    spw_push(b, w);
  }
}

void spw_free(SpvWords *b) {
  free(b->w);
  memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- module */

void spv_module_init(SpvModule *m) {
  memset(m, 0, sizeof *m);
  m->next_id = 1;
}

void spv_module_free(SpvModule *m) {
  for (int i = 0; i < SPV_SEC_COUNT_; i++) spw_free(&m->sec[i]);
  spw_free(&m->keys);
  memset(m, 0, sizeof *m);
}

uint32_t spv_id(SpvModule *m) {
  return m->next_id++;
}

void spv_emit(SpvModule *m, SpvSection s, SpvOp op, const uint32_t *ops, int nops) {
  if (!spw_inst(&m->sec[s], op, ops, nops)) m->too_long = true;
}

bool spv_has_capability(const SpvModule *m, SpvCapability cap) {
  unsigned c = (unsigned)cap;
  return c < 128 && (m->caps[c / 64] >> (c % 64) & 1);
}

void spv_capability(SpvModule *m, SpvCapability cap) {
  unsigned c = (unsigned)cap;
  if (c < 128) {
    if (spv_has_capability(m, cap)) return;
    m->caps[c / 64] |= 1ull << (c % 64);
  } else {
    /* The extensions' capabilities (numbered in the thousands) are few: the section itself
     * says whether one is there (every OpCapability is two words). */
    const SpvWords *b = &m->sec[SPV_SEC_CAPABILITY];
    for (size_t i = 0; i + 1 < b->n; i += 2)
      if (b->w[i + 1] == c) return;
  }
  uint32_t op = c;
  spv_emit(m, SPV_SEC_CAPABILITY, SpvOpCapability, &op, 1);
}

void spv_extension(SpvModule *m, const char *name) {
  SpvWords *b = &m->sec[SPV_SEC_EXTENSION];
  int nw = spw_string_words(name);
  for (size_t i = 0; i < b->n; i += b->w[i] >> SpvWordCountShift) {
    SpvWords one = {0};
    spw_string(&one, name);
    bool same = (int)(b->w[i] >> SpvWordCountShift) == 1 + nw &&
                !memcmp(b->w + i + 1, one.w, (size_t)nw * sizeof *one.w);
    spw_free(&one);
    if (same) return;
  }
  spw_push(b, ((uint32_t)(1 + nw) << SpvWordCountShift) | SpvOpExtension);
  spw_string(b, name);
}

/* ---------------------------------------------------------------- interning */

/* Interned keys live in SpvModule.keys as [length, words...]; the table stores their offset
 * (the array moves as it grows) and the id as the value. */
typedef struct SpvProbe {
  const uint32_t *w;
  size_t n;
} SpvProbe;

static bool key_eq(const void *stored, const void *probe, void *ctx) {
  const SpvModule *m = ctx;
  const SpvProbe *p = probe;
  const uint32_t *k = m->keys.w + (uintptr_t)stored;
  return k[0] == p->n && !memcmp(k + 1, p->w, p->n * sizeof *p->w);
}

uint32_t spv_intern(SpvModule *m, SpvOp op, uint32_t result_type, const uint32_t *ops, int nops) {
  return spv_intern_as(m, op, result_type, ops, nops, 0);
}

uint32_t spv_intern_as(SpvModule *m, SpvOp op, uint32_t result_type, const uint32_t *ops, int nops,
                       uint32_t want) {
  /* key: opcode, result type (0 for none), operands */
  uint32_t stack[64];
  size_t klen = (size_t)nops + 2;
  uint32_t *key = klen <= 64 ? stack : xrealloc(NULL, klen * sizeof *key);
  key[0] = (uint32_t)op;
  key[1] = result_type;
  if (nops > 0) memcpy(key + 2, ops, (size_t)nops * sizeof *ops);
  unsigned h = kmap_hash(key, klen * sizeof *key);
  KMapEnt *e = kmap_lookup(&m->tab, h, &(SpvProbe){key, klen}, key_eq, m);
  if (e->used) {
    if (key != stack) free(key);
    return (uint32_t)(uintptr_t)e->val;
  }
  uint32_t id = want ? want : spv_id(m);
  kmap_claim(&m->tab, e, h, (void *)(uintptr_t)m->keys.n, (void *)(uintptr_t)id);
  spw_push(&m->keys, (uint32_t)klen);
  spw_append(&m->keys, key, klen);
  /* the instruction itself: [result type,] result id, operands */
  SpvWords *g = &m->sec[SPV_SEC_GLOBAL];
  if (nops + (result_type ? 3 : 2) > 0xffff) {
    m->too_long = true;
    if (key != stack) free(key);
    return id;
  }
  spw_push(g, ((uint32_t)(nops + (result_type ? 3 : 2)) << SpvWordCountShift) | (uint32_t)op);
  if (result_type) spw_push(g, result_type);
  spw_push(g, id);
  spw_append(g, ops, (size_t)nops);
  if (key != stack) free(key);
  return id;
}

/* ---------------------------------------------------------------- types */

uint32_t spv_type_void(SpvModule *m) {
  return spv_intern(m, SpvOpTypeVoid, 0, NULL, 0);
}
uint32_t spv_type_bool(SpvModule *m) {
  return spv_intern(m, SpvOpTypeBool, 0, NULL, 0);
}

uint32_t spv_type_int(SpvModule *m, int bits) {
  if (bits == 8) spv_capability(m, SpvCapabilityInt8);
  if (bits == 16) spv_capability(m, SpvCapabilityInt16);
  if (bits == 64) spv_capability(m, SpvCapabilityInt64);
  uint32_t ops[2] = {(uint32_t)bits, 0};
  return spv_intern(m, SpvOpTypeInt, 0, ops, 2);
}

uint32_t spv_type_float(SpvModule *m, int bits) {
  if (bits == 64) spv_capability(m, SpvCapabilityFloat64);
  if (bits == 16) spv_capability(m, SpvCapabilityFloat16);
  uint32_t op = (uint32_t)bits;
  return spv_intern(m, SpvOpTypeFloat, 0, &op, 1);
}

uint32_t spv_type_vector(SpvModule *m, uint32_t elem, int n) {
  uint32_t ops[2] = {elem, (uint32_t)n};
  return spv_intern(m, SpvOpTypeVector, 0, ops, 2);
}

uint32_t spv_type_ptr(SpvModule *m, SpvStorageClass sc, uint32_t pointee) {
  uint32_t ops[2] = {(uint32_t)sc, pointee};
  return spv_intern(m, SpvOpTypePointer, 0, ops, 2);
}

uint32_t spv_type_array(SpvModule *m, uint32_t elem, uint64_t len) {
  uint32_t ops[2] = {elem,
                     len <= 0xffffffffu ? spv_const_int(m, 32, len) : spv_const_int(m, 64, len)};
  return spv_intern(m, SpvOpTypeArray, 0, ops, 2);
}

uint32_t spv_type_func(SpvModule *m, uint32_t ret, const uint32_t *params, int n) {
  uint32_t stack[33];
  uint32_t *ops = n < 32 ? stack : xrealloc(NULL, ((size_t)n + 1) * sizeof *ops);
  ops[0] = ret;
  if (n > 0) memcpy(ops + 1, params, (size_t)n * sizeof *params);
  uint32_t id = spv_intern(m, SpvOpTypeFunction, 0, ops, n + 1);
  if (ops != stack) free(ops);
  return id;
}

uint32_t spv_type_struct(SpvModule *m, const uint32_t *members, int n) {
  uint32_t id = spv_id(m);
  if (n + 2 > 0xffff) {
    m->too_long = true;
    return id;
  }
  SpvWords *g = &m->sec[SPV_SEC_GLOBAL];
  spw_push(g, ((uint32_t)(n + 2) << SpvWordCountShift) | SpvOpTypeStruct);
  spw_push(g, id);
  spw_append(g, members, (size_t)n);
  return id;
}

/* ---------------------------------------------------------------- constants */

uint32_t spv_const_int(SpvModule *m, int bits, uint64_t v) {
  uint32_t t = spv_type_int(m, bits);
  if (bits < 64) v &= (1ull << bits) - 1;
  /* Narrow literals occupy one word; "the high-order bits must be 0" for unsigned-less
   * types as OpenCL uses them. */
  uint32_t ops[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
  return spv_intern(m, SpvOpConstant, t, ops, bits > 32 ? 2 : 1);
}

uint32_t spv_const_float(SpvModule *m, int bits, double v) {
  uint32_t t = spv_type_float(m, bits);
  if (bits == 32) {
    float f = (float)v;
    uint32_t w;
    memcpy(&w, &f, 4);
    return spv_intern(m, SpvOpConstant, t, &w, 1);
  }
  uint64_t u;
  memcpy(&u, &v, 8);
  uint32_t ops[2] = {(uint32_t)u, (uint32_t)(u >> 32)};
  return spv_intern(m, SpvOpConstant, t, ops, 2);
}

uint32_t spv_const_bool(SpvModule *m, bool v) {
  return spv_intern(m, v ? SpvOpConstantTrue : SpvOpConstantFalse, spv_type_bool(m), NULL, 0);
}

uint32_t spv_const_null(SpvModule *m, uint32_t type) {
  return spv_intern(m, SpvOpConstantNull, type, NULL, 0);
}

uint32_t spv_const_composite(SpvModule *m, uint32_t type, const uint32_t *elems, int n) {
  return spv_intern(m, SpvOpConstantComposite, type, elems, n);
}

uint32_t spv_undef(SpvModule *m, uint32_t type) {
  return spv_intern(m, SpvOpUndef, type, NULL, 0);
}

/* ---------------------------------------------------------------- debug, annotations */

static void emit_with_string(SpvModule *m, SpvSection s, SpvOp op, const uint32_t *pre, int npre,
                             const char *str) {
  SpvWords *b = &m->sec[s];
  spw_push(b, ((uint32_t)(1 + npre + spw_string_words(str)) << SpvWordCountShift) | (uint32_t)op);
  spw_append(b, pre, (size_t)npre);
  spw_string(b, str);
}

void spv_name(SpvModule *m, uint32_t id, const char *name) {
  if (name && *name) emit_with_string(m, SPV_SEC_DEBUG_NAME, SpvOpName, &id, 1, name);
}

void spv_member_name(SpvModule *m, uint32_t type, uint32_t member, const char *name) {
  uint32_t pre[2] = {type, member};
  if (name && *name) emit_with_string(m, SPV_SEC_DEBUG_NAME, SpvOpMemberName, pre, 2, name);
}

void spv_decorate(SpvModule *m, uint32_t id, SpvDecoration d, const uint32_t *lits, int n) {
  uint32_t ops[8] = {id, (uint32_t)d};
  if (n > 6) n = 6;
  if (n > 0) memcpy(ops + 2, lits, (size_t)n * sizeof *lits);
  spv_emit(m, SPV_SEC_ANNOTATION, SpvOpDecorate, ops, n + 2);
}

uint32_t spv_string(SpvModule *m, const char *s) {
  uint32_t id = spv_id(m);
  emit_with_string(m, SPV_SEC_DEBUG_STRING, SpvOpString, &id, 1, s);
  return id;
}

/* ---------------------------------------------------------------- output */

uint32_t *spv_finish(SpvModule *m, size_t *nwords) {
  SpvWords out = {0};
  uint32_t header[5] = {SPV_MAGIC, spv_version(m), SPV_GENERATOR_KCC, m->next_id, 0};
  spw_append(&out, header, 5);
  for (int i = 0; i < SPV_SEC_COUNT_; i++) spw_append(&out, m->sec[i].w, m->sec[i].n);
  *nwords = out.n;
  return out.w;
}

/* SPIRV-Tools 2023.1 (Debian bookworm's) knows OpenCL environments up to 2.2; that one is
 * the strictest it has for kernels and accepts SPIR-V 1.0..1.2. */
#define SPV_KCC_ENV SPV_ENV_OPENCL_2_2

static bool validate_env(const uint32_t *words, size_t n, spv_target_env env, char **msg);

uint32_t spv_version(const SpvModule *m) {
  if (spv_has_capability(m, SpvCapabilityGroupNonUniform)) return SPV_VERSION_1_3;
  return spv_has_capability(m, SpvCapabilitySubgroupDispatch) ? SPV_VERSION_1_1 : SPV_VERSION_1_0;
}

/* A module of version 1.3 is beyond SPV_KCC_ENV's 1.2: the universal 1.3 rules check it. */
bool spv_validate(const uint32_t *words, size_t n, bool universal, char **msg) {
  spv_target_env env = n > 1 && words[1] >= SPV_VERSION_1_3 ? SPV_ENV_UNIVERSAL_1_3
                       : universal                          ? SPV_ENV_UNIVERSAL_1_2
                                                            : SPV_KCC_ENV;
  return validate_env(words, n, env, msg);
}

bool spv_validate_vulkan(const uint32_t *words, size_t n, char **msg) {
  return validate_env(words, n, SPV_ENV_VULKAN_1_2, msg);
}

static bool validate_env(const uint32_t *words, size_t n, spv_target_env env, char **msg) {
  *msg = NULL;
  spv_context ctx = spvContextCreate(env);
  if (!ctx) {
    *msg = strdup("cannot create a SPIRV-Tools context");
    return false;
  }
  spv_const_binary_t bin = {words, n};
  spv_diagnostic diag = NULL;
  spv_result_t r = spvValidate(ctx, &bin, &diag);
  if (r != SPV_SUCCESS) {
    char buf[64];
    const char *text = diag && diag->error ? diag->error : "no message";
    size_t len = strlen(text) + 96;
    *msg = malloc(len);
    if (*msg) {
      if (diag && !diag->isTextSource)
        snprintf(buf, sizeof buf, " (at word %zu)", diag->position.index);
      else
        buf[0] = 0;
      snprintf(*msg, len, "%s%s", text, buf);
    }
  }
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return r == SPV_SUCCESS;
}

char *spv_disassemble(const uint32_t *words, size_t n) {
  spv_context ctx = spvContextCreate(SPV_KCC_ENV);
  if (!ctx) return NULL;
  spv_text text = NULL;
  spv_diagnostic diag = NULL;
  uint32_t opts = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
  char *out = NULL;
  if (spvBinaryToText(ctx, words, n, opts, &text, &diag) == SPV_SUCCESS && text) {
    out = malloc(text->length + 1);
    if (out) {
      memcpy(out, text->str, text->length);
      out[text->length] = 0;
    }
  }
  spvTextDestroy(text);
  spvDiagnosticDestroy(diag);
  spvContextDestroy(ctx);
  return out;
}
