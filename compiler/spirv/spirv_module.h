/* spirv_module.h — the SPIR-V module builder under the SPIR-V back end: word buffers, id
 * allocation, the logical-layout sections, de-duplicated types and constants, capabilities,
 * and in-process validation with SPIRV-Tools.
 *
 * SPIR-V fixes the order of a module's sections (capabilities, extensions, imports, memory
 * model, entry points, execution modes, debug, annotations, types/constants/globals,
 * functions) while lowering discovers what it needs in any order (a capability when the
 * first double appears, a type in the middle of a function). So every section is its own
 * buffer and spv_finish() concatenates them behind the header.
 *
 * Non-aggregate types must be unique in a module and equal constants may as well be, so
 * types and constants go through spv_intern(), which returns the id of an identical earlier
 * instruction or appends a new one. Structs are not interned: two C structs with the same
 * members stay two types (each with its own OpName), which SPIR-V allows for aggregates. */
#ifndef KCC_SPIRV_MODULE_H
#define KCC_SPIRV_MODULE_H

#include "kir.h"

#include <spirv/unified1/spirv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPV_MAGIC 0x07230203u
/* SPIR-V 1.0: what OpenCL 2.1+ consumers, llvm-spirv and SPIRV-Tools' OpenCL 1.2..2.2
 * environments all accept; kcc needs nothing from later versions. */
#define SPV_VERSION_1_0 0x00010000u
/* SPIR-V 1.1: a kernel's required subgroup size (SubgroupDispatch, ExecutionMode SubgroupSize). */
#define SPV_VERSION_1_1 0x00010100u
/* SPIR-V 1.3: the GroupNonUniform operations (OpenCL's non-uniform, shuffle, ballot and
 * clustered subgroup functions), which 1.0 lacks; a module that uses them is 1.3. */
#define SPV_VERSION_1_3 0x00010300u
/* Header word 2. 0 is "unregistered generator"; kcc has no Khronos-assigned tool id. */
#define SPV_GENERATOR_KCC 0u

typedef struct SpvWords {
  uint32_t *w;
  size_t n, cap;
} SpvWords;

void spw_push(SpvWords *b, uint32_t word);
void spw_append(SpvWords *b, const uint32_t *words, size_t n);
/* One instruction: the word count/opcode word, then the operands. Returns false (and writes
 * nothing) when the instruction would exceed SPIR-V's 65535-word limit. */
bool spw_inst(SpvWords *b, SpvOp op, const uint32_t *ops, int nops);
/* A literal string operand: UTF-8 bytes, NUL-terminated, zero-padded to whole words. */
void spw_string(SpvWords *b, const char *s);
/* Words spw_string() writes for s. */
int spw_string_words(const char *s);
void spw_free(SpvWords *b);

typedef enum SpvSection {
  SPV_SEC_CAPABILITY,
  SPV_SEC_EXTENSION,
  SPV_SEC_IMPORT,
  SPV_SEC_MEMORY_MODEL,
  SPV_SEC_ENTRY,
  SPV_SEC_EXEC_MODE,
  SPV_SEC_DEBUG_STRING, /* OpString, OpSource */
  SPV_SEC_DEBUG_NAME,   /* OpName, OpMemberName */
  SPV_SEC_ANNOTATION,   /* OpDecorate, OpMemberDecorate */
  SPV_SEC_GLOBAL,       /* types, constants, OpUndef, module-scope OpVariable */
  SPV_SEC_FUNCTION,
  SPV_SEC_COUNT_
} SpvSection;

typedef struct SpvModule {
  SpvWords sec[SPV_SEC_COUNT_];
  uint32_t next_id; /* ids are 1..next_id-1; the header's bound is next_id */
  /* intern table: keys (opcode, [result type], operands) -> id */
  KMap tab;
  SpvWords keys;
  uint64_t caps[2]; /* capabilities declared so far, as bits (all kcc uses are < 128) */
  bool too_long;    /* an instruction needed more than 65535 words: the module is unusable */
} SpvModule;

void spv_module_init(SpvModule *m);
void spv_module_free(SpvModule *m);

uint32_t spv_id(SpvModule *m); /* a fresh result id */
/* Appends an instruction to a section. */
void spv_emit(SpvModule *m, SpvSection s, SpvOp op, const uint32_t *ops, int nops);
/* Declares a capability once, in the capability section. */
void spv_capability(SpvModule *m, SpvCapability cap);
bool spv_has_capability(const SpvModule *m, SpvCapability cap);
/* Declares an extension (OpExtension) once. */
void spv_extension(SpvModule *m, const char *name);

/* An instruction in the global section identified by its operands: returns the id of an
 * earlier identical one (same opcode, result type and operands) or emits it with a fresh id.
 * result_type 0: the instruction has none (types). */
uint32_t spv_intern(SpvModule *m, SpvOp op, uint32_t result_type, const uint32_t *ops, int nops);
/* As spv_intern, but a new instruction gets the id `id` (reserved earlier with spv_id): for a
 * pointer type announced by OpTypeForwardPointer. */
uint32_t spv_intern_as(SpvModule *m, SpvOp op, uint32_t result_type, const uint32_t *ops, int nops,
                       uint32_t id);

/* Types (interned; the integer and float widths also declare their capabilities). */
uint32_t spv_type_void(SpvModule *m);
uint32_t spv_type_bool(SpvModule *m);
uint32_t spv_type_int(SpvModule *m, int bits); /* signedness 0, as OpenCL requires */
uint32_t spv_type_float(SpvModule *m, int bits);
uint32_t spv_type_vector(SpvModule *m, uint32_t elem, int n);
uint32_t spv_type_ptr(SpvModule *m, SpvStorageClass sc, uint32_t pointee);
uint32_t spv_type_array(SpvModule *m, uint32_t elem, uint64_t len); /* length: a u32/u64 constant */
uint32_t spv_type_func(SpvModule *m, uint32_t ret, const uint32_t *params, int n);
/* A new (never shared) struct type. */
uint32_t spv_type_struct(SpvModule *m, const uint32_t *members, int n);

/* Constants (interned). Integers are given as their low `bits` bits. */
uint32_t spv_const_int(SpvModule *m, int bits, uint64_t v);
uint32_t spv_const_float(SpvModule *m, int bits, double v);
uint32_t spv_const_bool(SpvModule *m, bool v);
uint32_t spv_const_null(SpvModule *m, uint32_t type);
uint32_t spv_const_composite(SpvModule *m, uint32_t type, const uint32_t *elems, int n);
uint32_t spv_undef(SpvModule *m, uint32_t type);

/* Debug and annotation helpers. */
void spv_name(SpvModule *m, uint32_t id, const char *name);
void spv_member_name(SpvModule *m, uint32_t type, uint32_t member, const char *name);
void spv_decorate(SpvModule *m, uint32_t id, SpvDecoration d, const uint32_t *lits, int n);
uint32_t spv_string(SpvModule *m, const char *s); /* OpString (not interned) */

/* The whole module: header (magic, version, generator, bound, schema) and sections.
 * The result is malloc'd; *nwords receives its length. */
uint32_t *spv_finish(SpvModule *m, size_t *nwords);

/* Validates a binary with SPIRV-Tools for the OpenCL 2.2 environment (the newest OpenCL one
 * SPIRV-Tools 2023.1 knows) or, with universal, for plain SPIR-V 1.2: that release's OpenCL
 * environments reject the Int64Atomics capability outright (they do not model
 * cl_khr_int64_base_atomics), so modules with 64-bit atomics can only get the universal
 * rules. Returns true when valid; otherwise *msg receives the validator's message
 * (malloc'd, may be NULL). */
/* The module's SPIR-V version: 1.0; 1.1 when it declares SubgroupDispatch; 1.3 when it
 * declares GroupNonUniform. */
uint32_t spv_version(const SpvModule *m);
bool spv_validate(const uint32_t *words, size_t n, bool universal, char **msg);
/* The same for the Vulkan flavour: SPIRV-Tools' Vulkan 1.2 environment (the oldest with
 * bufferDeviceAddress in core, which the flavour's PhysicalStorageBuffer pointers need). */
bool spv_validate_vulkan(const uint32_t *words, size_t n, char **msg);
/* The binary as spirv-dis would print it (no header comment), for -v and tests; malloc'd,
 * NULL on failure. */
char *spv_disassemble(const uint32_t *words, size_t n);

#endif
