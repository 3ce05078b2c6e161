/* header.c — the C header back end (.h): what a C or C++ program includes to launch the
 * kernels of one .k file with type-checked calls.
 *
 * The header holds the fat module (emit_bundle's bytes) as a static array and one static inline
 * launch function per kernel. Pointer parameters become typed buffer handles (one small struct
 * per element type, so a buffer of int passed for a float parameter is a compile error in C and
 * C++ alike), scalar parameters their exact-width C types, struct parameters the struct itself,
 * re-declared with kcc's layout and checked against it at compile time.
 *
 * Everything a header defines is either named after its prefix (unique per .k file, or
 * --prefix) or shared by every generated header and guarded, so that any number of generated
 * headers can meet in one translation unit, and every definition has internal linkage, so that
 * they can meet in one program. docs/cli.md describes the result for users; the shared part's
 * guard carries a version number that must change whenever that part changes. */
#include "bounds.h"
#include "diag.h"
#include "kcc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- names and types */

/* C89..C23 and C++ keywords a .k parameter may be named after (the kernel is C, the header
 * may be C++), plus the launch functions' own parameter names. A parameter that clashes gets
 * a trailing underscore: the name only matters to readers of the header. */
static const char *const reserved_names[] = {
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    NULL,
    /* the launch functions' fixed parameters and locals */
    "dev",
    "grid",
    "block",
    "dynamic_shared",
    "queue",
    "cfg",
    "kcc_k",
    "kcc_args",
    "kcc_st",
};

/* The header's own names and kcrt.h's (kcrt_status, KCRT_SUCCESS, kcc_buf_float...) and the
 * types it spells (size_t, int32_t: every *_t, as POSIX reserves them): a parameter named so
 * would shadow what the launch function's body uses. */
static bool has_reserved_prefix(const char *s) {
  static const char *const prefixes[] = {"kcrt_", "KCRT_", "kcc_", "KCC_", NULL};
  for (const char *const *p = prefixes; *p; p++)
    if (!strncmp(s, *p, strlen(*p))) return true;
  return false;
}

static bool is_reserved(const char *s) {
  for (size_t i = 0; i < sizeof reserved_names / sizeof reserved_names[0]; i++)
    if (reserved_names[i] && !strcmp(reserved_names[i], s)) return true;
  size_t n = strlen(s);
  return has_reserved_prefix(s) || (n > 2 && !strcmp(s + n - 2, "_t")) || !strcmp(s, "NULL");
}

/* C and C++ keywords: the list above up to its NULL. */
static bool is_keyword(const char *s) {
  for (const char *const *k = reserved_names; *k; k++)
    if (!strcmp(*k, s)) return true;
  return false;
}

/* Why a struct tag or field name cannot appear in the header as it is, or NULL. Struct
 * parameters keep their names there (the host program fills them in), so a clash with what
 * the header itself defines or includes would be a redefinition, and a C++ keyword would
 * break the header for C++. */
static const char *host_name_clash(const char *name, bool tag) {
  static const char *const std_types[] = {"int8_t",   "int16_t",  "int32_t",  "int64_t", "uint8_t",
                                          "uint16_t", "uint32_t", "uint64_t", "size_t",  NULL};
  if (!strncasecmp(name, "kcc_", 4) || !strncasecmp(name, "kcrt_", 5))
    return "names starting with kcc_ or kcrt_ belong to the generated header and kcrt.h";
  if (is_keyword(name)) return "it is a C or C++ keyword, and the header is also C++";
  if (tag)
    for (const char *const *t = std_types; *t; t++)
      if (!strcmp(*t, name)) return "C++ would take it for the standard type the header uses";
  return NULL;
}

/* A zero-length array (a GNU extension kernels may use) anywhere in t's declarator: host C99
 * and C++ have no such type. */
static bool has_zero_length(const KType *t) {
  for (; t->kind == KT_ARRAY; t = t->base)
    if (t->len == 0) return true;
  return false;
}

/* The field names of in (st, or an anonymous member of it, whose fields are st's). */
static bool check_field_names(const KStruct *st, const KStruct *in) {
  bool ok = true;
  for (int j = 0; j < in->nfields; j++) {
    const char *why;
    if (in->fields[j].anon) {
      ok &= check_field_names(st, in->fields[j].type->st);
    } else if (has_zero_length(in->fields[j].type)) {
      diag_error(st->loc,
                 "field '%s' of %s '%s' is a zero-length array, which standard C and C++ "
                 "cannot declare: the generated C header cannot hold the %s (give the array "
                 "a length)",
                 in->fields[j].name, kir_struct_kw(st), st->name, kir_struct_kw(st));
      ok = false;
    } else if ((why = host_name_clash(in->fields[j].name, false))) {
      diag_error(st->loc,
                 "field '%s' of %s '%s' cannot keep its name in the generated C header (%s); "
                 "rename the field",
                 in->fields[j].name, kir_struct_kw(st), st->name, why);
      ok = false;
    }
  }
  return ok;
}

static bool check_host_names(const KList *need) {
  bool ok = true;
  for (int i = 0; i < need->n; i++) {
    const KStruct *st = need->v[i];
    const char *why = host_name_clash(st->name, true);
    if (why) {
      diag_error(st->loc,
                 "%s '%s' cannot keep its name in the generated C header (%s); rename "
                 "the %s",
                 kir_struct_kw(st), st->name, why, kir_struct_kw(st));
      ok = false;
    }
    ok &= check_field_names(st, st);
  }
  return ok;
}

/* The default prefix: the input's base name with every character that cannot appear in an
 * identifier replaced by '_' ("vecadd.k" -> "vecadd_k"), so headers from different files
 * never share a name. */
static char *default_prefix(const char *file) {
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "kernels";
  KBuf b = {0};
  if (isdigit((unsigned char)base[0])) kbuf_puts(&b, "k");
  for (const char *p = base; *p; p++) {
    char c = isalnum((unsigned char)*p) ? *p : '_';
    kbuf_append(&b, &c, 1);
  }
  char *s = kir_strdup(b.data ? b.data : "kernels");
  kbuf_free(&b);
  return s;
}

typedef struct ScalarName {
  const char *ctype;  /* the host C type of a value */
  const char *handle; /* the buffer handle for a pointer to it */
  const char *code;   /* libkcrt's element type, the tag its _alloc gives a buffer */
} ScalarName;

static ScalarName scalar_name(KTypeKind k) {
  switch (k) {
  case KT_BOOL: return (ScalarName){"kcc_bool", "kcc_buf_bool", "KCRT_TYPE_BOOL"};
  case KT_I8: return (ScalarName){"int8_t", "kcc_buf_int8", "KCRT_TYPE_INT8"};
  case KT_I16: return (ScalarName){"int16_t", "kcc_buf_int16", "KCRT_TYPE_INT16"};
  case KT_I32: return (ScalarName){"int32_t", "kcc_buf_int32", "KCRT_TYPE_INT32"};
  case KT_I64: return (ScalarName){"int64_t", "kcc_buf_int64", "KCRT_TYPE_INT64"};
  case KT_U8: return (ScalarName){"uint8_t", "kcc_buf_uint8", "KCRT_TYPE_UINT8"};
  case KT_U16: return (ScalarName){"uint16_t", "kcc_buf_uint16", "KCRT_TYPE_UINT16"};
  case KT_U32: return (ScalarName){"uint32_t", "kcc_buf_uint32", "KCRT_TYPE_UINT32"};
  case KT_U64: return (ScalarName){"uint64_t", "kcc_buf_uint64", "KCRT_TYPE_UINT64"};
  case KT_F32: return (ScalarName){"float", "kcc_buf_float", "KCRT_TYPE_FLOAT"};
  case KT_F64: return (ScalarName){"double", "kcc_buf_double", "KCRT_TYPE_DOUBLE"};
  default: return (ScalarName){NULL, NULL, NULL};
  }
}

/* A vector type's host names: kcc_float4, kcc_buf_float4, and its libkcrt element type
 * (OpenCL's names: kcc_uchar4 holds uint8_t). */
static ScalarName vector_name(const KType *t) {
  static const char *const names[] = {
      [KT_I8] = "char",   [KT_I16] = "short",  [KT_I32] = "int",  [KT_I64] = "long",
      [KT_U8] = "uchar",  [KT_U16] = "ushort", [KT_U32] = "uint", [KT_U64] = "ulong",
      [KT_F32] = "float", [KT_F64] = "double"};
  KBuf a = {0}, b = {0}, c = {0};
  const char *n = names[t->base->kind];
  kbuf_printf(&a, "kcc_%s%d", n, (int)t->len);
  kbuf_printf(&b, "kcc_buf_%s%d", n, (int)t->len);
  kbuf_printf(&c, "KCRT_TYPE_VECTOR(%s, %d)", scalar_name(t->base->kind).code, (int)t->len);
  ScalarName r = {kir_strdup(a.data), kir_strdup(b.data), kir_strdup(c.data)};
  kbuf_free(&a);
  kbuf_free(&b);
  kbuf_free(&c);
  return r;
}

/* The host C type of a scalar or vector value. */
static const char *value_ctype(const KType *t) {
  return t->kind == KT_VEC ? vector_name(t).ctype : scalar_name(t->kind).ctype;
}

/* The typed handle a pointer parameter takes: per scalar, vector or struct pointee, and the
 * untyped kcc_buf_void for everything else (void *, pointers to pointers or arrays). */
static const char *handle_name(const KType *ptr) {
  const KType *t = ptr->base;
  if (t->kind == KT_VEC) return vector_name(t).handle;
  if (t->kind == KT_STRUCT) {
    KBuf s = {0};
    kbuf_printf(&s, "kcc_buf_struct_%s", t->st->name);
    char *r = kir_strdup(s.data);
    kbuf_free(&s);
    return r;
  }
  const char *h = scalar_name(t->kind).handle;
  return h ? h : "kcc_buf_void";
}

/* A declaration of `name` with type `t` as host C spells it ("float v[3]", "struct Vec3 p").
 * Pointers inside structs are device addresses the host cannot form: they keep their size
 * and alignment as uint64_t. (The front end refuses such structs as kernel parameters for
 * now, as OpenCL C does; the case is kept so a layout is never silently wrong.) */
static const KType *host_declarator(KBuf *b, const KType *t, const char *name) {
  KBuf dims = {0};
  while (t->kind == KT_ARRAY) {
    kbuf_printf(&dims, "[%lld]", (long long)t->len);
    t = t->base;
  }
  if (t->kind == KT_STRUCT)
    kbuf_printf(b, "%s %s", kir_struct_kw(t->st), t->st->name);
  else if (t->kind == KT_PTR)
    kbuf_puts(b, "uint64_t");
  else
    kbuf_puts(b, value_ctype(t));
  kbuf_printf(b, " %s%s", name, dims.data ? dims.data : "");
  kbuf_free(&dims);
  return t;
}

static void host_decl(KBuf *b, const KType *t, const char *name) {
  t = host_declarator(b, t, name);
  if (t->kind == KT_PTR)
    kbuf_puts(b, "; /* a device pointer: no host equivalent */");
  else
    kbuf_puts(b, ";");
}

/* ---------------------------------------------------------------- the shared part */

/* Text every generated header carries once per translation unit (KCC_HOST_COMMON_3 guards
 * it). Change it only together with the number in the guard: two headers from different kcc
 * versions must not silently share a different definition. (2: modules kept by libkcrt per
 * device, buffers tagged with their element type. 3: _from, short launch names.) */
static const char common_head[] =
    "#ifndef KCC_HOST_COMMON_3\n"
    "#define KCC_HOST_COMMON_3\n"
    "/* Shared by every header kcc generates (the guard lets several meet in one file). */\n"
    "#if !defined(KCRT_HAS_MODULE_GET) || !defined(KCRT_HAS_BUFFER_TYPE) || "
    "!defined(KCRT_HAS_CONVENIENCE)\n"
    "#error \"this kcc-generated header needs a newer kcrt.h (kcrt_module_get, "
    "kcrt_buffer_set_type, kcrt_config)\"\n"
    "#endif\n"
    "\n"
    "#ifdef __cplusplus\n"
    "typedef bool kcc_bool;\n"
    "#else\n"
    "typedef _Bool kcc_bool;\n"
    "#endif\n"
    "\n"
    "/* Compile-time layout checks: static_assert where the language has it. */\n"
    "#if defined(__cplusplus) && __cplusplus >= 201103L\n"
    "#define KCC_LAYOUT_CHECK(cond, msg, id) static_assert(cond, msg)\n"
    "#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n"
    "#define KCC_LAYOUT_CHECK(cond, msg, id) _Static_assert(cond, msg)\n"
    "#else\n"
    "#define KCC_LAYOUT_CHECK(cond, msg, id) typedef char id[(cond) ? 1 : -1]\n"
    "#endif\n"
    "\n"
    "/* Grid and block sizes (kcrt_dim3), without compound literals so that C++ takes them. */\n"
    "static inline kcrt_dim3 kcc_dim3(uint64_t x, uint64_t y, uint64_t z) {\n"
    "  kcrt_dim3 d;\n"
    "  d.x = x;\n"
    "  d.y = y;\n"
    "  d.z = z;\n"
    "  return d;\n"
    "}\n"
    "static inline kcrt_dim3 kcc_dim2(uint64_t x, uint64_t y) { return kcc_dim3(x, y, 1); }\n"
    "static inline kcrt_dim3 kcc_dim1(uint64_t x) { return kcc_dim3(x, 1, 1); }\n"
    "/* The number of blocks of `block` threads that cover `n` threads. */\n"
    "static inline uint64_t kcc_div_up(uint64_t n, uint64_t block) {\n"
    "  return block ? n / block + (n % block != 0) : 0;\n"
    "}\n"
    "\n"
    "/* count * size, saturated: an overflowing request reaches libkcrt as an impossible size,\n"
    " * which it refuses with a message, instead of wrapping to a small valid one. */\n"
    "static inline size_t kcc_impl_bytes(size_t count, size_t size) {\n"
    "  return size && count > (size_t)-1 / size ? (size_t)-1 : count * size;\n"
    "}\n"
    "\n"
    "/* A new buffer of `count` elements of `type` (`size` bytes each), tagged so that libkcrt\n"
    " * refuses it at launch for a parameter of another element type, even when it reaches the\n"
    " * launch through a kcc_buf_T_of view. */\n"
    "static inline kcrt_status kcc_impl_alloc(kcrt_device *dev, size_t count, kcrt_elem_type "
    "type,\n"
    "                                         size_t size, kcrt_buffer **out) {\n"
    "  kcrt_buffer *raw = NULL;\n"
    "  kcrt_status st = kcrt_buffer_alloc(dev, kcc_impl_bytes(count, size), &raw);\n"
    "  if (st != KCRT_SUCCESS) return st;\n"
    "  st = kcrt_buffer_set_type(raw, type, size);\n"
    "  if (st == KCRT_SUCCESS)\n"
    "    *out = raw;\n"
    "  else\n"
    "    kcrt_buffer_free(raw);\n"
    "  return st;\n"
    "}\n"
    "\n"
    "/* The module of `bundle` on `dev`, and its kernel `name` when name is not NULL. libkcrt\n"
    " * keeps one module per device and bundle (kcrt_module_get): loaded at the first call on\n"
    " * the device, once whatever the threads, and released by kcrt_device_close. A failed load\n"
    " * is not remembered: the next call tries again and libkcrt reports again. */\n"
    "static inline kcrt_status kcc_impl_lookup(kcrt_device *dev, const unsigned char *bundle,\n"
    "                                          size_t size, const char *name, kcrt_module "
    "**mod,\n"
    "                                          kcrt_kernel **k) {\n"
    "  kcrt_module *m = NULL;\n"
    "  kcrt_status st = kcrt_module_get(dev, bundle, size, &m);\n"
    "  if (st == KCRT_SUCCESS && name) st = kcrt_kernel_get(m, name, k);\n"
    "  if (st == KCRT_SUCCESS && mod) *mod = m;\n"
    "  return st;\n"
    "}\n"
    "\n"
    "/* Untyped buffer handle, for pointer parameters without a typed one (void *). Its buffers\n"
    " * are bytes: untagged. */\n"
    "typedef struct kcc_buf_void {\n"
    "  kcrt_buffer *raw;\n"
    "} kcc_buf_void;\n"
    "static inline kcc_buf_void kcc_buf_void_of(kcrt_buffer *raw) {\n"
    "  kcc_buf_void b;\n"
    "  b.raw = raw;\n"
    "  return b;\n"
    "}\n"
    "static inline kcrt_status kcc_buf_void_alloc(kcrt_device *dev, size_t bytes, "
    "kcc_buf_void *out) {\n"
    "  return kcrt_buffer_alloc(dev, bytes, &out->raw);\n"
    "}\n"
    "static inline kcrt_status kcc_buf_void_free(kcc_buf_void b) { return "
    "kcrt_buffer_free(b.raw); }\n";

/* A typed buffer handle and its helpers, for elements of C type `ctype`, which its _alloc
 * tags as libkcrt's element type `code`. */
static void emit_handle(KBuf *b, const char *h, const char *ctype, const char *code) {
  kbuf_printf(b,
              "\n"
              "/* A device buffer of %s elements (a typed kcrt_buffer). */\n"
              "typedef struct %s {\n"
              "  kcrt_buffer *raw;\n"
              "} %s;\n",
              ctype, h, h);
  kbuf_printf(b,
              "/* Views `raw` as a buffer of %s. The compiler cannot check what it holds;\n"
              " * libkcrt checks at launch when `raw` is tagged (made by an _alloc helper, or\n"
              " * see kcrt_buffer_set_type). */\n"
              "static inline %s %s_of(kcrt_buffer *raw) {\n"
              "  %s b;\n"
              "  b.raw = raw;\n"
              "  return b;\n"
              "}\n",
              ctype, h, h, h);
  kbuf_printf(b,
              "static inline kcrt_status %s_alloc(kcrt_device *dev, size_t count, %s *out) {\n"
              "  return kcc_impl_alloc(dev, count, %s, sizeof(%s), &out->raw);\n"
              "}\n",
              h, h, code, ctype);
  kbuf_printf(b,
              "static inline kcrt_status %s_free(%s b) { return kcrt_buffer_free(b.raw); }\n"
              "static inline size_t %s_count(%s b) {\n"
              "  return kcrt_buffer_size(b.raw) / sizeof(%s);\n"
              "}\n"
              "/* Blocking copies of `count` elements from/to element `first` of the buffer. */\n"
              "static inline kcrt_status %s_write(%s dst, size_t first,\n"
              "    const %s *src, size_t count) {\n"
              "  return kcrt_buffer_write(dst.raw, kcc_impl_bytes(first, sizeof(%s)), src,\n"
              "                           kcc_impl_bytes(count, sizeof(%s)));\n"
              "}\n"
              "static inline kcrt_status %s_read(%s src, size_t first,\n"
              "    %s *dst, size_t count) {\n"
              "  return kcrt_buffer_read(src.raw, kcc_impl_bytes(first, sizeof(%s)), dst,\n"
              "                          kcc_impl_bytes(count, sizeof(%s)));\n"
              "}\n",
              h, h, h, h, ctype, h, h, ctype, ctype, ctype, h, h, ctype, ctype, ctype);
  kbuf_printf(b,
              "/* A new buffer holding a copy of `count` elements at `src` (_alloc, then _write;\n"
              " * freed again if the write fails). */\n"
              "static inline kcrt_status %s_from(kcrt_device *dev, const %s *src, size_t count,\n"
              "    %s *out) {\n"
              "  %s b;\n"
              "  b.raw = NULL;\n"
              "  kcrt_status st = %s_alloc(dev, count, &b);\n"
              "  if (st == KCRT_SUCCESS) st = %s_write(b, 0, src, count);\n"
              "  if (st == KCRT_SUCCESS)\n"
              "    *out = b;\n"
              "  else if (b.raw)\n"
              "    kcrt_buffer_free(b.raw);\n"
              "  return st;\n"
              "}\n",
              h, ctype, h, h, h, h);
}

static void emit_common(KBuf *b) {
  kbuf_puts(b, common_head);
  static const KTypeKind kinds[] = {KT_BOOL, KT_I8,  KT_I16, KT_I32, KT_I64, KT_U8,
                                    KT_U16,  KT_U32, KT_U64, KT_F32, KT_F64};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    ScalarName n = scalar_name(kinds[i]);
    emit_handle(b, n.handle, n.ctype, n.code);
  }
  kbuf_puts(b, "#endif /* KCC_HOST_COMMON_3 */\n");
}

/* ---------------------------------------------------------------- structs */

static bool in_list(const KList *l, const void *x) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == x) return true;
  return false;
}

/* Marks the structs the host needs: those kernel parameters take by value or point to, and
 * those they contain. Pointer fields become uint64_t, so what they point to is not needed. */
static void need_fields(KList *need, KList *vecs, const KStruct *st);
static void need_type(KList *need, KList *vecs, const KType *t) {
  while (t->kind == KT_ARRAY) t = t->base;
  if (t->kind == KT_VEC && !in_list(vecs, t)) klist_push(vecs, (void *)t);
  if (t->kind != KT_STRUCT || in_list(need, t->st)) return;
  klist_push(need, t->st);
  need_fields(need, vecs, t->st);
}

/* An anonymous member's type is declared inside its record (emit_fields), not on its own. */
static void need_fields(KList *need, KList *vecs, const KStruct *st) {
  for (int i = 0; i < st->nfields; i++)
    if (st->fields[i].anon)
      need_fields(need, vecs, st->fields[i].type->st);
    else
      need_type(need, vecs, st->fields[i].type);
}

/* A vector type as the host declares it: OpenCL's layout (cl_float4's: the components in
 * `s`, a 3-vector with a fourth unused slot, aligned to its size), in a guard that any number
 * of headers share, with its typed buffer handle. */
static void emit_vector(KBuf *b, const KType *t) {
  ScalarName n = vector_name(t);
  int slots = t->len == 3 ? 4 : (int)t->len;
  const char *bare = n.ctype + 4; /* "float4" */
  kbuf_printf(b,
              "\n#ifndef KCC_VEC_%s\n#define KCC_VEC_%s\n"
              "#ifndef KCRT_HAS_VECTOR_TYPES\n"
              "#error \"this kcc-generated header needs a newer kcrt.h (vector element types)\"\n"
              "#endif\n"
              "#ifndef KCC_ALIGNAS\n"
              "#if defined(__cplusplus) && __cplusplus >= 201103L\n"
              "#define KCC_ALIGNAS(n) alignas(n)\n"
              "#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L\n"
              "#define KCC_ALIGNAS(n) _Alignas(n)\n"
              "#elif defined(__GNUC__)\n"
              "#define KCC_ALIGNAS(n) __attribute__((aligned(n)))\n"
              "#elif defined(_MSC_VER)\n"
              "#define KCC_ALIGNAS(n) __declspec(align(n))\n"
              "#else\n"
              "#define KCC_ALIGNAS(n)\n"
              "#endif\n"
              "#endif\n"
              "/* The kernels' %s: s[0] .. s[%d]%s; %d bytes, aligned to %d. */\n"
              "typedef struct %s {\n"
              "  KCC_ALIGNAS(%d) %s s[%d];\n"
              "} %s;\n"
              "KCC_LAYOUT_CHECK(sizeof(%s) == %d, \"%s must be %d bytes, as the kernels lay it "
              "out\", kcc_layout_%s);\n",
              bare, bare, bare, (int)t->len - 1, t->len == 3 ? " (s[3] is padding)" : "", t->size,
              t->align, n.ctype, t->align, scalar_name(t->base->kind).ctype, slots, n.ctype,
              n.ctype, t->size, bare, t->size, bare);
  emit_handle(b, n.handle, n.ctype, n.code);
  kbuf_puts(b, "#endif\n");
}

/* The struct as the host declares it, in a guard that lets a second header (or the user's
 * own definition, with KCC_STRUCT_<name> defined first) provide it instead; the layout checks
 * that follow run whoever defined it, so a different layout is a compile error that says
 * which field differs. */
/* The fields of st, an anonymous member's as C11 declares them: untagged, unnamed. */
static void emit_fields(KBuf *b, const KStruct *st, int indent) {
  for (int i = 0; i < st->nfields; i++) {
    const KField *f = &st->fields[i];
    kbuf_printf(b, "%*s", indent, "");
    if (f->anon) {
      kbuf_printf(b, "%s {\n", kir_struct_kw(f->type->st));
      emit_fields(b, f->type->st, indent + 2);
      kbuf_printf(b, "%*s};\n", indent, "");
      continue;
    }
    host_decl(b, f->type, f->name);
    kbuf_puts(b, "\n");
  }
}

/* offsetof checks of the fields of in (st itself, or an anonymous member of it at `base`). */
static void emit_field_checks(KBuf *b, const KStruct *st, const KStruct *in, int base,
                              const char *prefix, int *n) {
  const char *kw = kir_struct_kw(st);
  for (int i = 0; i < in->nfields; i++) {
    const KField *f = &in->fields[i];
    int off = base + f->offset;
    if (f->anon) {
      emit_field_checks(b, st, f->type->st, off, prefix, n);
      continue;
    }
    kbuf_printf(b,
                "KCC_LAYOUT_CHECK(offsetof(%s %s, %s) == %d, \"%s %s: field '%s' must be "
                "at offset %d, as kcc laid it out for the kernels\", %s_layout_%s_%d);\n",
                kw, st->name, f->name, off, kw, st->name, f->name, off, prefix, st->name, (*n)++);
  }
}

static void emit_struct(KBuf *b, const KStruct *st, const char *prefix) {
  const char *kw = kir_struct_kw(st);
  kbuf_printf(b, "\n#ifndef KCC_STRUCT_%s\n#define KCC_STRUCT_%s\n%s %s {\n", st->name, st->name,
              kw, st->name);
  emit_fields(b, st, 2);
  if (st->align_attr)
    kbuf_printf(b, "} __attribute__((aligned(%d)));\n#endif\n", st->align_attr);
  else
    kbuf_puts(b, "};\n#endif\n");
  kbuf_printf(b,
              "KCC_LAYOUT_CHECK(sizeof(%s %s) == %d, \"%s %s must be %d bytes, as kcc laid "
              "it out for the kernels\", %s_layout_%s);\n",
              kw, st->name, st->size, kw, st->name, st->size, prefix, st->name);
  int nchecks = 0;
  emit_field_checks(b, st, st, 0, prefix, &nchecks);
  kbuf_printf(b, "#ifndef KCC_BUF_STRUCT_%s\n#define KCC_BUF_STRUCT_%s", st->name, st->name);
  KBuf h = {0}, c = {0};
  kbuf_printf(&h, "kcc_buf_struct_%s", st->name);
  kbuf_printf(&c, "%s %s", kw, st->name);
  emit_handle(b, h.data, c.data, "KCRT_TYPE_STRUCT");
  kbuf_puts(b, "#endif\n");
  kbuf_free(&h);
  kbuf_free(&c);
}

/* ---------------------------------------------------------------- kernels */

typedef struct Param {
  const char *name; /* as the launch function names it */
  const char *type; /* as the launch function declares it */
  bool buffer;
  bool local; /* `shared T *`: the launch function takes its size in bytes, NAME_bytes */
} Param;

static Param *kernel_params(const KFunc *f) {
  Param *ps = kir_alloc(sizeof(Param) * (size_t)(kir_user_params(f) ? kir_user_params(f) : 1));
  for (int j = 0; j < kir_user_params(f); j++) {
    const KVar *v = f->params[j];
    const KType *t = v->type;
    KBuf n = {0};
    if (v->name && *v->name)
      kbuf_puts(&n, v->name);
    else
      kbuf_printf(&n, "arg%d", j + 1);
    ps[j].local = t->kind == KT_PTR && t->as == KAS_SHARED;
    if (ps[j].local) kbuf_puts(&n, "_bytes");
    /* Clashes with keywords, with the fixed parameters and with each other. */
    if (has_reserved_prefix(n.data)) { /* no suffix takes it out of the header's namespace */
      KBuf p = {0};
      kbuf_printf(&p, "p_%s", n.data);
      kbuf_free(&n);
      n = p;
    }
    for (bool again = true; again;) {
      again = is_reserved(n.data);
      for (int k = 0; k < j && !again; k++) again = !strcmp(ps[k].name, n.data);
      if (again) kbuf_puts(&n, "_");
    }
    ps[j].name = kir_strdup(n.data);
    kbuf_free(&n);
    if (ps[j].local) {
      ps[j].type = "size_t";
    } else if (t->kind == KT_PTR) {
      ps[j].buffer = true;
      ps[j].type = handle_name(t);
    } else if (t->kind == KT_STRUCT) {
      KBuf s = {0};
      kbuf_printf(&s, "%s %s", kir_struct_kw(t->st), t->st->name);
      ps[j].type = kir_strdup(s.data);
      kbuf_free(&s);
    } else if (v->tex_image) {
      /* A texture or surface object libkcrt made (on CUDA, a program's own CUDA object fits
       * too: (kcrt_texture *)(uintptr_t)obj, which no live handle equals). */
      ps[j].type = v->tex_surface ? "kcrt_surface *" : "kcrt_texture *";
    } else if (kir_is_opaque(t)) {
      /* The handle itself goes by value: kcrt_launch reads the kcrt_image * at &name. */
      ps[j].type = t->kind == KT_IMAGE ? "kcrt_image *" : "kcrt_sampler *";
    } else {
      ps[j].type = value_ctype(t);
    }
    /* The declarations print type and name together: `float x`, `kcrt_image *src`. */
    size_t tl = strlen(ps[j].type);
    if (tl && ps[j].type[tl - 1] != '*') {
      KBuf s = {0};
      kbuf_printf(&s, "%s ", ps[j].type);
      ps[j].type = kir_strdup(s.data);
      kbuf_free(&s);
    }
  }
  return ps;
}

/* The kernel's own signature, for the comment above its launch function. */
static void source_signature(KBuf *b, const KFunc *f) {
  kbuf_printf(b, "kernel void %s(", f->name);
  for (int j = 0; j < kir_user_params(f); j++) {
    const char *ts = kir_type_str(f->params[j]->type);
    const char *n = f->params[j]->name ? f->params[j]->name : "";
    size_t len = strlen(ts);
    kbuf_printf(b, "%s%s%s%s", j ? ", " : "", ts, len && ts[len - 1] == '*' ? "" : " ", n);
  }
  kbuf_puts(b, ")");
}

static void emit_launch(KBuf *b, const KFunc *f, const char *prefix) {
  Param *ps = kernel_params(f);
  KBuf sig = {0};
  source_signature(&sig, f);
  kbuf_printf(
      b,
      "\n/* %s\n"
      " * Queues `grid` blocks of `block` threads on `queue` (NULL: the default queue) and\n"
      " * returns; the first launch on `dev` loads the module there. dynamic_shared: bytes\n"
      " * for the kernel's `extern shared` array (%s).",
      sig.data, f->uses_dynamic_shared ? "it has one" : "it has none: pass 0");
  kbuf_free(&sig);
  bool any_local = false;
  for (int j = 0; j < kir_user_params(f); j++) any_local |= ps[j].local;
  if (any_local)
    kbuf_puts(b,
              "\n * NAME_bytes: the size in bytes (> 0) of local-memory parameter NAME (`shared T\n"
              " * *NAME`), a buffer of the block made for this launch.");
  if (f->reqd_block[0])
    kbuf_printf(b,
                "\n * `block` must be %d x %d x %d (the kernel's reqd_work_group_size): libkcrt\n"
                " * refuses any other shape.",
                f->reqd_block[0], f->reqd_block[1], f->reqd_block[2]);
  kbuf_puts(b, " */\n");
  KBuf head = {0};
  kbuf_printf(&head, "static inline kcrt_status %s_launch_%s(", prefix, f->name);
  int indent = (int)head.len;
  kbuf_puts(b, head.data);
  kbuf_puts(b, "kcrt_device *dev, kcrt_dim3 grid, kcrt_dim3 block,\n");
  kbuf_printf(b, "%*ssize_t dynamic_shared, kcrt_queue *queue", indent, "");
  int col = indent + 39;
  for (int j = 0; j < kir_user_params(f); j++) {
    int w = (int)(strlen(ps[j].type) + strlen(ps[j].name));
    if (col + w + 2 > 100) {
      kbuf_printf(b, ",\n%*s", indent, "");
      col = indent;
    } else {
      kbuf_puts(b, ", ");
      col += 2;
    }
    kbuf_printf(b, "%s%s", ps[j].type, ps[j].name);
    col += w;
  }
  kbuf_puts(b, ") {\n");
  kbuf_free(&head);
  kbuf_printf(b, "  kcrt_kernel *kcc_k = NULL;\n");
  if (kir_user_params(f)) kbuf_printf(b, "  kcrt_arg kcc_args[%d];\n", kir_user_params(f));
  kbuf_printf(b,
              "  kcrt_status kcc_st =\n"
              "      kcc_impl_lookup(dev, %s_bundle, sizeof %s_bundle, \"%s\", NULL, &kcc_k);\n"
              "  if (kcc_st != KCRT_SUCCESS) return kcc_st;\n",
              prefix, prefix, f->name);
  for (int j = 0; j < kir_user_params(f); j++) {
    if (ps[j].local)
      kbuf_printf(b, "  kcc_args[%d] = kcrt_local(%s);\n", j, ps[j].name);
    else if (ps[j].buffer)
      kbuf_printf(b,
                  "  kcc_args[%d].value = NULL;\n  kcc_args[%d].size = 0;\n"
                  "  kcc_args[%d].buffer = %s.raw;\n",
                  j, j, j, ps[j].name);
    else
      kbuf_printf(b,
                  "  kcc_args[%d].value = &%s;\n  kcc_args[%d].size = sizeof %s;\n"
                  "  kcc_args[%d].buffer = NULL;\n",
                  j, ps[j].name, j, ps[j].name, j);
  }
  kbuf_printf(b, "  return kcrt_launch(kcc_k, queue, grid, block, dynamic_shared, %s, %d);\n}\n",
              kir_user_params(f) ? "kcc_args" : "NULL", kir_user_params(f));

  /* The short name: the kernel's own name and the launch settings in one kcrt_config, what
   * most programs call. Unlike the prefixed names it can clash (two headers with a kernel of
   * the same name, or a host function of that name): KCC_NO_SHORT_NAMES leaves it out. */
  kbuf_printf(b,
              "#ifndef KCC_NO_SHORT_NAMES\n"
              "/* %s_launch_%s with the launch settings in one kcrt_config:\n"
              " * %s_launch(kcrt_config_1d(dev, n, 256), ...). */\n"
              "static inline kcrt_status %s_launch(kcrt_config cfg",
              prefix, f->name, f->name, f->name);
  for (int j = 0; j < kir_user_params(f); j++) kbuf_printf(b, ", %s%s", ps[j].type, ps[j].name);
  kbuf_printf(b, ") {\n  return %s_launch_%s(cfg.dev, cfg.grid, cfg.block, cfg.shared, cfg.queue",
              prefix, f->name);
  for (int j = 0; j < kir_user_params(f); j++) kbuf_printf(b, ", %s", ps[j].name);
  kbuf_puts(b, ");\n}\n#endif\n");
  kbuf_printf(b,
              "/* The kcrt_kernel behind %s_launch_%s on `dev` (for kcrt_kernel_get_info). */\n"
              "static inline kcrt_status %s_kernel_%s(kcrt_device *dev, kcrt_kernel **out) {\n"
              "  return kcc_impl_lookup(dev, %s_bundle, sizeof %s_bundle, \"%s\", NULL, out);\n"
              "}\n",
              prefix, f->name, prefix, f->name, prefix, prefix, f->name);
}

/* A host-filled constant's setter: writes all of it on `dev` (cudaMemcpyToSymbol's job). */
static void emit_symbol(KBuf *b, const KVar *v, const char *prefix) {
  KBuf decl = {0};
  host_declarator(&decl, v->type, "value");
  kbuf_printf(b,
              "\n/* constant %s %s, filled by the host: sets all of it (%d bytes) for the\n"
              " * launches on `dev` that follow; it is zero until set. */\n"
              "static inline kcrt_status %s_set_%s(kcrt_device *dev, const %s) {\n"
              "  kcrt_module *kcc_m = NULL;\n"
              "  kcrt_buffer *kcc_b = NULL;\n"
              "  kcrt_status kcc_st = %s_module(dev, &kcc_m);\n"
              "  if (kcc_st == KCRT_SUCCESS) kcc_st = kcrt_module_symbol(kcc_m, \"%s\", &kcc_b);\n"
              "  if (kcc_st != KCRT_SUCCESS) return kcc_st;\n"
              "  return kcrt_buffer_write(kcc_b, 0, %svalue, %d);\n"
              "}\n",
              kir_type_str(v->type), v->name, v->type->size, prefix, v->name, decl.data, prefix,
              v->name, v->type->kind == KT_ARRAY ? "" : "&", v->type->size);
  kbuf_free(&decl);
}

/* ---------------------------------------------------------------- the header */

static void emit_bytes(KBuf *b, const unsigned char *p, size_t n) {
  /* Decimal without spaces: about half the size of 0x.. with spaces, and compilers read it
   * at the same speed. */
  size_t col = 0;
  for (size_t i = 0; i < n; i++) {
    char num[8];
    int w = snprintf(num, sizeof num, "%u,", p[i]);
    if (col + (size_t)w > 96) {
      kbuf_puts(b, "\n");
      col = 0;
    }
    kbuf_append(b, num, (size_t)w);
    col += (size_t)w;
  }
  kbuf_puts(b, "\n");
}

bool emit_header(KModule *m, const KOptions *o, KBuf *out) {
  return emit_header_with_bundle(m, o, NULL, out);
}

/* emit_header with the module's bundle given (`given`, for tests of the header alone on
 * hand-built KIR that no back end has to compile), or made by emit_bundle when NULL. */
bool emit_header_with_bundle(KModule *m, const KOptions *o, const KBuf *given, KBuf *out) {
  KList kernels = {0}, need = {0}, vecs = {0};
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = KLIST_AT(m->funcs, i, KFunc *);
    if (!f->is_kernel) continue;
    klist_push(&kernels, f);
    for (int j = 0; j < kir_user_params(f); j++) {
      const KType *t = f->params[j]->type;
      if (t->kind == KT_PTR && t->as == KAS_SHARED) continue; /* passed as a size */
      need_type(&need, &vecs, t->kind == KT_PTR ? t->base : t);
    }
  }
  for (int i = 0; i < m->globals.n; i++)
    if (KLIST_AT(m->globals, i, KVar *)->host_filled)
      need_type(&need, &vecs, KLIST_AT(m->globals, i, KVar *)->type);
  if (!check_host_names(&need)) return false;
  KBuf bundle = {0};
  if (given)
    kbuf_append(&bundle, given->data, given->len);
  else if (!emit_bundle(m, o, &bundle)) {
    kbuf_free(&bundle);
    return false;
  }
  const char *prefix = o->prefix ? o->prefix : default_prefix(m->file);
  const char *base = m->file ? strrchr(m->file, '/') : NULL;
  base = base ? base + 1 : m->file ? m->file : "(unknown)";

  kbuf_printf(out,
              "/* Generated by kcc %s from %s: do not edit; rerun kcc instead.\n"
              " *\n"
              " * Launch functions for the kernels of %s, with the compiled module embedded\n"
              " * (kcc's fat module: PTX, SPIR-V and OpenCL C, chosen per device by libkcrt).\n"
              " * Valid C99, C11 and C++; link the program with libkcrt. Every name below starts\n"
              " * with %s_ (set with kcc --prefix=NAME) or is shared by all kcc headers\n"
              " * (kcc_*), so several generated headers can be included together.\n"
              " *\n"
              " * Kernels:\n",
              KCC_VERSION, base, base, prefix);
  for (int i = 0; i < kernels.n; i++) {
    KBuf sig = {0};
    source_signature(&sig, KLIST_AT(kernels, i, KFunc *));
    kbuf_printf(out, " *   %s_launch_%s  <-  %s\n", prefix, KLIST_AT(kernels, i, KFunc *)->name,
                sig.data);
    kbuf_free(&sig);
  }
  if (!kernels.n) kbuf_puts(out, " *   (none)\n");
  kbuf_printf(out,
              " */\n"
              "#ifndef KCC_GENERATED_%s_H\n"
              "#define KCC_GENERATED_%s_H\n"
              "\n"
              "#include <kcrt.h>\n"
              "#include <stddef.h>\n"
              "#include <stdint.h>\n"
              "\n",
              prefix, prefix);
  emit_common(out);
  for (int i = 0; i < vecs.n; i++) emit_vector(out, vecs.v[i]);

  /* Structs in the module's order, which has every struct after those it contains. */
  for (int i = 0; i < m->structs.n; i++) {
    KStruct *st = KLIST_AT(m->structs, i, KStruct *);
    if (in_list(&need, st)) emit_struct(out, st, prefix);
  }

  kbuf_printf(out,
              "\n/* The fat module (%zu bytes; `kcbinfo` can read a copy of it). */\n"
              "static const unsigned char %s_bundle[%zu] = {\n",
              bundle.len, prefix, bundle.len);
  emit_bytes(out, (const unsigned char *)bundle.data, bundle.len);
  kbuf_puts(out, "};\n");
  kbuf_printf(out,
              "#define %s_KERNEL_COUNT %d\n"
              "\n"
              "/* The module on `dev`: libkcrt loads it at the first call on that device\n"
              " * (once, whatever the threads) and keeps it until kcrt_device_close. It\n"
              " * belongs to the device: kcrt_module_unload refuses it. */\n"
              "static inline kcrt_status %s_module(kcrt_device *dev, kcrt_module **out) {\n"
              "  return kcc_impl_lookup(dev, %s_bundle, sizeof %s_bundle, NULL, out, NULL);\n"
              "}\n"
              "/* Does nothing: kept for programs written for earlier headers, which had to\n"
              " * unload their module before kcrt_device_close. That releases it now. */\n"
              "static inline kcrt_status %s_release(kcrt_device *dev) {\n"
              "  (void)dev;\n"
              "  return KCRT_SUCCESS;\n"
              "}\n",
              prefix, kernels.n, prefix, prefix, prefix, prefix);
  for (int i = 0; i < kernels.n; i++) emit_launch(out, KLIST_AT(kernels, i, KFunc *), prefix);
  for (int i = 0; i < m->globals.n; i++)
    if (KLIST_AT(m->globals, i, KVar *)->host_filled)
      emit_symbol(out, KLIST_AT(m->globals, i, KVar *), prefix);
  kbuf_printf(out, "\n#endif /* KCC_GENERATED_%s_H */\n", prefix);
  kbuf_free(&bundle);
  return true;
}
