/* kcc._fastlaunch — the Python package's launch path in C (docs/python.md, "The launch path";
 * docs/design.md says why a C extension beside ctypes).
 *
 * `kernel[grid, block](*args)` through ctypes costs about 3 µs of Python per launch: a Python
 * method for the subscript, one Python closure per argument and the ctypes call. Here the
 * subscript (KernelBase's mp_subscript: a dict lookup) and the call (Launch's tp_call) are C,
 * and the arguments kcc can convert without Python's help are written straight into the
 * kernel's kcrt_arg array: kcc device arrays (by their buffer handle), Python ints for integer
 * parameters, Python floats and ints for float and double parameters, kcc.Texture and
 * kcc.Surface objects for CUDA texture and surface parameters (by their kcrt handle). Every
 * other argument, and every one of these that would fail a check, goes to the parameter's
 * Python setter (_core.py), which does the conversion or raises the exception the ctypes path
 * raises, with its text: one implementation of the semantics, and errors identical on both
 * paths.
 *
 * libkcrt is not linked: kcrt_launch's address comes from the ctypes handle (bind()), so the
 * extension and ctypes use the same library, wherever KCC_LIBDIR found it.
 *
 * Built against the stable ABI (Py_LIMITED_API, CPython 3.9 and later): one file serves every
 * Python 3 from 3.9 on, so a build made here runs on a machine with another Python 3 and no
 * compiler (tests/gpu/python_prepare.sh carries it). */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <pythread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>
#include <time.h>

#include "kcrt.h"

/* The version of the contract with _core.py (the parameter codes, setup()'s arguments):
 * _native.py refuses an extension of another version and falls back to ctypes. */
#define FAST_VERSION 7

/* Py_XSETREF is not in the limited API. */
#define SETREF(dst, src)                                                                           \
  do {                                                                                             \
    PyObject *old_ = (PyObject *)(dst);                                                            \
    (dst) = (src);                                                                                 \
    Py_XDECREF(old_);                                                                              \
  } while (0)

typedef kcrt_status (*launch_fn)(kcrt_kernel *, kcrt_queue *, kcrt_dim3, kcrt_dim3, size_t,
                                 const kcrt_arg *, int);

static launch_fn the_launch;       /* kcrt_launch (bind()); a stub in bench/python_overhead.py */
static PyObject *device_array_cls; /* kcc.DeviceArray (register_array()): exact type checks */
/* kcc.Texture and kcc.Surface (register_texobj()), and the names of the attributes a launch
 * reads from them. */
static PyObject *texture_cls, *surface_cls;
static PyObject *str_h, *str_device, *str_image;

/* ---------------------------------------------------------------- ArrayBase
 * The base of kcc.DeviceArray: the fields a launch reads, and those an array operation's result
 * is made of (new_array() below fills them without running Python), as C fields rather than
 * entries of the instance dict. */
typedef struct {
  PyObject_HEAD void *buf; /* kcrt_buffer *; NULL: freed (or not yet made) */
  int et;                  /* kcrt_elem_type of the dtype, 0: none */
  PyObject *device;        /* the kcc.Device it lives on */
  void *queue;             /* the kcrt_queue * of the launches on a kcc.Stream that used it:
                              NULL none (the default queue only), QUEUE_SEVERAL more than one.
                              The memory pool reuses its block only after that work is done. */
  /* _core.DeviceArray's attributes (Python sets them as it would instance attributes): */
  PyObject *shape, *dtype, *size, *nbytes, *st, *off;
  PyObject *base;  /* a view's owner; NULL reads as None */
  PyObject *block; /* a pool array's block record (_core.MemoryPool); NULL reads as None */
  char exported;   /* its address went to another library: the block is not reused */
} ArrayBase;

#define QUEUE_SEVERAL ((void *)1)

static PyTypeObject *array_type_obj; /* ArrayBase: a launch marks the arrays it used */

static void mark_queue(ArrayBase *a, void *q) {
  if (!a->queue)
    a->queue = q;
  else if (a->queue != q)
    a->queue = QUEUE_SEVERAL;
}

static PyObject *array_get_queue(PyObject *o, void *closure) {
  ArrayBase *self = (ArrayBase *)o;
  (void)closure;
  if (!self->queue) Py_RETURN_NONE;
  return PyLong_FromVoidPtr(self->queue);
}

static int array_set_queue(PyObject *o, PyObject *v, void *closure) {
  ArrayBase *self = (ArrayBase *)o;
  (void)closure;
  if (!v || v == Py_None) {
    self->queue = NULL;
    return 0;
  }
  void *p = PyLong_AsVoidPtr(v);
  if (!p && PyErr_Occurred()) return -1;
  self->queue = p;
  return 0;
}

static PyObject *array_get_buf(PyObject *o, void *closure) {
  ArrayBase *self = (ArrayBase *)o;
  (void)closure;
  if (!self->buf) Py_RETURN_NONE;
  return PyLong_FromVoidPtr(self->buf);
}

static int array_set_buf(PyObject *o, PyObject *v, void *closure) {
  ArrayBase *self = (ArrayBase *)o;
  (void)closure;
  if (!v || v == Py_None) {
    self->buf = NULL;
    return 0;
  }
  void *p = PyLong_AsVoidPtr(v);
  if (!p && PyErr_Occurred()) return -1;
  self->buf = p;
  return 0;
}

static int array_traverse(ArrayBase *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->device);
  Py_VISIT(self->shape);
  Py_VISIT(self->dtype);
  Py_VISIT(self->size);
  Py_VISIT(self->nbytes);
  Py_VISIT(self->st);
  Py_VISIT(self->off);
  Py_VISIT(self->base);
  Py_VISIT(self->block);
  return 0;
}

static int array_clear(PyObject *o) {
  ArrayBase *self = (ArrayBase *)o;
  Py_CLEAR(self->device);
  Py_CLEAR(self->shape);
  Py_CLEAR(self->dtype);
  Py_CLEAR(self->size);
  Py_CLEAR(self->nbytes);
  Py_CLEAR(self->st);
  Py_CLEAR(self->off);
  Py_CLEAR(self->base);
  Py_CLEAR(self->block);
  return 0;
}

/* The end of every type's dealloc: the object's memory back through its type's tp_free, then
 * the reference a heap type's instance holds to its type. */
static void free_object(PyObject *o, PyTypeObject *tp) {
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(o);
  Py_DECREF(tp);
}

/* A garbage-collected object's dealloc: untracked, its references cleared, freed. */
static void gc_dealloc(PyObject *o, inquiry clear) {
  PyTypeObject *tp = Py_TYPE(o);
  PyObject_GC_UnTrack(o);
  clear(o);
  free_object(o, tp);
}

static void array_dealloc(ArrayBase *self) {
  gc_dealloc((PyObject *)self, array_clear);
}

static void array_finalize(PyObject *self);
/* Its operators (below, with BinaryOp and ReduceOp). */
static PyObject *array_add(PyObject *, PyObject *), *array_sub(PyObject *, PyObject *),
    *array_mul(PyObject *, PyObject *), *array_truediv(PyObject *, PyObject *),
    *array_floordiv(PyObject *, PyObject *), *array_mod(PyObject *, PyObject *),
    *array_pow(PyObject *, PyObject *, PyObject *), *array_and(PyObject *, PyObject *),
    *array_or(PyObject *, PyObject *), *array_xor(PyObject *, PyObject *),
    *array_lshift(PyObject *, PyObject *), *array_rshift(PyObject *, PyObject *),
    *array_negative(PyObject *), *array_absolute(PyObject *), *array_invert(PyObject *),
    *array_richcompare(PyObject *, PyObject *, int);

static PyGetSetDef array_getset[] = {
    {"_buf", array_get_buf, array_set_buf, "the kcrt_buffer handle, or None", NULL},
    {"_queue", array_get_queue, array_set_queue,
     "the kcrt_queue handle of the stream launches that used it (1: several), or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef array_members[] = {
    {"_et", T_INT, offsetof(ArrayBase, et), 0, "kcrt element type of the dtype (0: none)"},
    {"device", T_OBJECT_EX, offsetof(ArrayBase, device), 0, "the kcc.Device"},
    {"shape", T_OBJECT_EX, offsetof(ArrayBase, shape), 0, "the shape (a tuple)"},
    {"dtype", T_OBJECT_EX, offsetof(ArrayBase, dtype), 0, "the numpy dtype"},
    {"size", T_OBJECT_EX, offsetof(ArrayBase, size), 0, "the number of elements"},
    {"nbytes", T_OBJECT_EX, offsetof(ArrayBase, nbytes), 0, "the bytes of the elements"},
    {"_st", T_OBJECT_EX, offsetof(ArrayBase, st), 0, "element strides"},
    {"_off", T_OBJECT_EX, offsetof(ArrayBase, off), 0, "a view's first element in the buffer"},
    {"base", T_OBJECT, offsetof(ArrayBase, base), 0, "a view's: the array owning the memory"},
    {"_block", T_OBJECT, offsetof(ArrayBase, block), 0, "a pool array's block record"},
    {"_exported", T_BOOL, offsetof(ArrayBase, exported), 0,
     "whether another library had its address (the block is not reused)"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot array_slots[] = {
    {Py_tp_doc, "The C fields of kcc.DeviceArray that a launch reads."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, array_dealloc},
    {Py_tp_traverse, array_traverse},
    {Py_tp_clear, array_clear},
    {Py_tp_finalize, array_finalize},
    {Py_tp_getset, array_getset},
    {Py_tp_members, array_members},
    {Py_nb_add, array_add},
    {Py_nb_subtract, array_sub},
    {Py_nb_multiply, array_mul},
    {Py_nb_true_divide, array_truediv},
    {Py_nb_floor_divide, array_floordiv},
    {Py_nb_remainder, array_mod},
    {Py_nb_power, array_pow},
    {Py_nb_and, array_and},
    {Py_nb_or, array_or},
    {Py_nb_xor, array_xor},
    {Py_nb_lshift, array_lshift},
    {Py_nb_rshift, array_rshift},
    {Py_nb_negative, array_negative},
    {Py_nb_absolute, array_absolute},
    {Py_nb_invert, array_invert},
    {Py_tp_richcompare, array_richcompare},
    {Py_tp_hash, PyObject_HashNotImplemented}, /* == is element-wise, as NumPy's */
    {0, NULL},
};

static PyType_Spec array_spec = {
    "kcc._fastlaunch.ArrayBase",
    sizeof(ArrayBase),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    array_slots,
};

/* ---------------------------------------------------------------- the memory pool
 * _core.MemoryPool keeps freed arrays' blocks for reuse (docs/python.md, "The memory pool"). Its
 * state is here, as C fields of its base PoolBase, so that the commonest cases run without
 * Python: new_array() makes an array operation's result from a kept block of the same bytes and
 * type tag, and a DeviceArray's finalizer (array_finalize) puts its block back on its class's
 * list. Everything else (a new block from the driver, another view, a block held back for a
 * stream, statistics, free_all_blocks) stays MemoryPool's Python, which mutates the same fields.
 *
 * The pool's lock is PoolLock, a reentrant lock whose holder count C can read: the C paths run
 * only while nobody holds it (a Python thread stopped inside a locked section would otherwise
 * see its read-modify-write undone), and, holding the GIL, run no Python code between the first
 * look at the pool and the last change, so they are atomic to every other thread. Anything
 * that could run Python (a new object: the garbage collector, finalizers) comes before. */

typedef struct {
  PyObject_HEAD PyThread_type_lock lock;
  unsigned long owner; /* the holder's thread ident while count > 0 */
  long count;          /* how many times the holder took it: 0 free */
} PoolLock;

static PyTypeObject *plock_type;

static int plock_init(PyObject *o, PyObject *args, PyObject *kw) {
  PoolLock *self = (PoolLock *)o;
  if ((kw && PyDict_Size(kw)) || PyTuple_Size(args)) {
    PyErr_SetString(PyExc_TypeError, "PoolLock() takes no arguments");
    return -1;
  }
  if (!self->lock && !(self->lock = PyThread_allocate_lock())) {
    PyErr_SetString(PyExc_RuntimeError, "kcc: cannot make a lock");
    return -1;
  }
  return 0;
}

static void plock_dealloc(PyObject *o) {
  PoolLock *self = (PoolLock *)o;
  PyTypeObject *tp = Py_TYPE(o);
  if (self->lock) PyThread_free_lock(self->lock);
  free_object(o, tp);
}

static PyObject *plock_acquire(PyObject *o, PyObject *args) {
  PoolLock *self = (PoolLock *)o;
  int blocking = 1;
  if (!PyArg_ParseTuple(args, "|p:acquire", &blocking)) return NULL;
  if (!self->lock) {
    PyErr_SetString(PyExc_TypeError, "kcc: a PoolLock that was not initialised");
    return NULL;
  }
  unsigned long me = PyThread_get_thread_ident();
  if (self->count && self->owner == me) { /* a finalizer's free inside a locked section */
    self->count++;
    Py_RETURN_TRUE;
  }
  if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
    if (!blocking) Py_RETURN_FALSE;
    PyThreadState *ts = PyEval_SaveThread(); /* the holder may need the GIL to finish */
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    PyEval_RestoreThread(ts);
  }
  self->owner = me;
  self->count = 1;
  Py_RETURN_TRUE;
}

static PyObject *plock_release(PyObject *o, PyObject *args) {
  PoolLock *self = (PoolLock *)o;
  (void)args;
  if (!self->count || self->owner != PyThread_get_thread_ident()) {
    PyErr_SetString(PyExc_RuntimeError, "cannot release un-acquired lock");
    return NULL;
  }
  if (!--self->count) {
    self->owner = 0;
    PyThread_release_lock(self->lock);
  }
  Py_RETURN_NONE;
}

static PyObject *plock_enter(PyObject *o, PyObject *args) {
  (void)args;
  PyObject *noargs = PyTuple_New(0);
  if (!noargs) return NULL;
  PyObject *r = plock_acquire(o, noargs);
  Py_DECREF(noargs);
  return r;
}

static PyMethodDef plock_methods[] = {
    {"acquire", plock_acquire, METH_VARARGS, "acquire(blocking=True) -> bool"},
    {"release", plock_release, METH_NOARGS, "release()"},
    {"__enter__", plock_enter, METH_NOARGS, "acquire()"},
    {"__exit__", plock_release, METH_VARARGS, "release()"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef plock_members[] = {
    {"_count", T_LONG, offsetof(PoolLock, count), READONLY, "how many times it is held"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot plock_slots[] = {
    {Py_tp_doc, "The memory pool's reentrant lock, whose holder count the C paths read."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, plock_init},
    {Py_tp_dealloc, plock_dealloc},
    {Py_tp_methods, plock_methods},
    {Py_tp_members, plock_members},
    {0, NULL},
};

static PyType_Spec plock_spec = {
    "kcc._fastlaunch.PoolLock", sizeof(PoolLock), 0, Py_TPFLAGS_DEFAULT, plock_slots,
};

typedef struct {
  PyObject_HEAD PyObject *free; /* dict: size class -> list of block records */
  PyObject *held;               /* list: (queue, record) held back for streams */
  PyObject *lock;               /* a PoolLock */
  long long used, cached;       /* bytes of blocks arrays hold, bytes kept */
} PoolBase;

static PyTypeObject *pool_type;

static int pool_traverse(PoolBase *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->free);
  Py_VISIT(self->held);
  Py_VISIT(self->lock);
  return 0;
}

static int pool_clear(PyObject *o) {
  PoolBase *self = (PoolBase *)o;
  Py_CLEAR(self->free);
  Py_CLEAR(self->held);
  Py_CLEAR(self->lock);
  return 0;
}

static void pool_dealloc(PoolBase *self) {
  gc_dealloc((PyObject *)self, pool_clear);
}

static PyMemberDef pool_members[] = {
    {"_free", T_OBJECT, offsetof(PoolBase, free), 0, "size class -> [block records]"},
    {"_held", T_OBJECT, offsetof(PoolBase, held), 0, "[(queue, record)] held for streams"},
    {"_lock", T_OBJECT, offsetof(PoolBase, lock), 0, "the pool's PoolLock"},
    {"_used", T_LONGLONG, offsetof(PoolBase, used), 0, "bytes of blocks that arrays hold"},
    {"_cached", T_LONGLONG, offsetof(PoolBase, cached), 0, "bytes of blocks kept"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot pool_slots[] = {
    {Py_tp_doc, "The C fields of kcc.MemoryPool."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, pool_dealloc},
    {Py_tp_traverse, pool_traverse},
    {Py_tp_clear, pool_clear},
    {Py_tp_members, pool_members},
    {0, NULL},
};

static PyType_Spec pool_spec = {
    "kcc._fastlaunch.PoolBase",
    sizeof(PoolBase),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    pool_slots,
};

/* register_pool()'s: _core._pool_on (a list: [whether pools are on]), _core._pinned (the set of
 * buffers an interrupted wait still uses: never freed), _core._new_array (Python's way). */
static PyObject *pool_on_list, *pinned_set, *new_array_py;
static PyObject *int_zero, *str_free;

static int pools_on(void) {
  return pool_on_list && PyList_CheckExact(pool_on_list) && PyList_Size(pool_on_list) == 1 &&
         PyList_GetItem(pool_on_list, 0) == Py_True;
}

/* The pool when its C path may run now: a PoolBase whose lock nobody holds. */
static PoolBase *pool_ready(PyObject *o) {
  if (!pool_type || !o || !PyObject_TypeCheck(o, pool_type)) return NULL;
  PoolBase *p = (PoolBase *)o;
  if (!p->lock || Py_TYPE(p->lock) != plock_type || ((PoolLock *)p->lock)->count) return NULL;
  return p->free && PyDict_CheckExact(p->free) ? p : NULL;
}

/* A block record as MemoryPool makes them: [pool, block, size class, view, view's bytes,
 * view's type tag, whether to keep it when freed]. */
enum { REC_POOL, REC_BLOCK, REC_CLASS, REC_VIEW, REC_BYTES, REC_TAG, REC_KEEP, REC_N };

static int is_record(PyObject *r) {
  return r && PyList_CheckExact(r) && PyList_Size(r) == REC_N;
}

/* a == b for exact ints, or exact tuples of them: no Python code runs. */
static int same_value(PyObject *a, PyObject *b) {
  if (a == b) return 1;
  if (!((PyLong_CheckExact(a) && PyLong_CheckExact(b)) ||
        (PyTuple_CheckExact(a) && PyTuple_CheckExact(b))))
    return 0;
  int r = PyObject_RichCompareBool(a, b, Py_EQ);
  if (r < 0) PyErr_Clear();
  return r == 1;
}

/* A new DeviceArray of (shape, dtype) on dev from a block `pool` keeps for its size class
 * with a view of the same bytes and type tag (the common case: the same operation's result
 * again), as _core._new_array would make it. lay is _core._LAYOUT's (size, nbytes, element
 * strides, element type, buffer bytes, type tag, size class). Py_None (a new reference) when
 * the C path cannot (no such block, the lock held, pools off): Python's way decides. */
static PyObject *new_array(PyObject *pool, PyObject *dev, PyObject *lay, PyObject *shape,
                           PyObject *dtype) {
  if (!device_array_cls || !PyTuple_CheckExact(lay) || PyTuple_Size(lay) != 7 || !pools_on())
    Py_RETURN_NONE;
  PyObject *cls = PyTuple_GetItem(lay, 6);
  int et = (int)PyLong_AsLong(PyTuple_GetItem(lay, 3));
  if ((et == -1 && PyErr_Occurred()) || !PyLong_CheckExact(cls)) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  long long c = PyLong_AsLongLong(cls);
  if (c == -1 && PyErr_Occurred()) return NULL;
  /* The object first: making it may run the garbage collector, whose finalizers give blocks
   * back to the pool. From here on no Python code runs. */
  allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)device_array_cls, Py_tp_alloc);
  ArrayBase *a = (ArrayBase *)alloc((PyTypeObject *)device_array_cls, 0);
  if (!a) return NULL;
  PoolBase *p = pool_ready(pool);
  PyObject *lst = p ? PyDict_GetItemWithError(p->free, cls) : NULL; /* borrowed */
  Py_ssize_t n = lst && PyList_CheckExact(lst) ? PyList_Size(lst) : 0;
  PyObject *rec = n ? PyList_GetItem(lst, n - 1) : NULL; /* _malloc's lst.pop() */
  void *view = NULL;
  if (is_record(rec) && same_value(PyList_GetItem(rec, REC_BYTES), PyTuple_GetItem(lay, 4)) &&
      same_value(PyList_GetItem(rec, REC_TAG), PyTuple_GetItem(lay, 5)))
    view = PyLong_AsVoidPtr(PyList_GetItem(rec, REC_VIEW));
  if (!view) {
    PyErr_Clear();
    Py_DECREF(a); /* its finalizer: nothing to free */
    Py_RETURN_NONE;
  }
  Py_INCREF(rec);
  if (PyList_SetSlice(lst, n - 1, n, NULL)) {
    Py_DECREF(rec);
    Py_DECREF(a);
    return NULL;
  }
  p->cached -= c;
  p->used += c;
  a->buf = view;
  a->et = et;
  Py_INCREF(dev);
  a->device = dev;
  Py_INCREF(shape);
  a->shape = shape;
  Py_INCREF(dtype);
  a->dtype = dtype;
  a->size = PyTuple_GetItem(lay, 0);
  Py_INCREF(a->size);
  a->nbytes = PyTuple_GetItem(lay, 1);
  Py_INCREF(a->nbytes);
  a->st = PyTuple_GetItem(lay, 2);
  Py_INCREF(a->st);
  Py_INCREF(int_zero);
  a->off = int_zero;
  a->block = rec; /* our reference */
  return (PyObject *)a;
}

/* new_array(pool, device, layout, shape, dtype) from Python (_core._new_array). */
static PyObject *fast_new_array(PyObject *m, PyObject *args) {
  (void)m;
  if (!PyTuple_CheckExact(args) || PyTuple_Size(args) != 5) {
    PyErr_SetString(PyExc_TypeError, "new_array(pool, device, layout, shape, dtype)");
    return NULL;
  }
  return new_array(PyTuple_GetItem(args, 0), PyTuple_GetItem(args, 1), PyTuple_GetItem(args, 2),
                   PyTuple_GetItem(args, 3), PyTuple_GetItem(args, 4));
}

/* MemoryPool._give_back's common case in C: a pool array used on the default queue only, its
 * block a size class's, pools on, nothing pinned, and the class's list there (its first block
 * goes through Python's setdefault). 1 done, 0 not (nothing changed). */
static int give_back(ArrayBase *a) {
  if ((PyObject *)Py_TYPE(a) != device_array_cls || a->exported || a->queue || !pools_on())
    return 0;
  if (!pinned_set || !PyAnySet_CheckExact(pinned_set) || PySet_Size(pinned_set)) return 0;
  PyObject *rec = a->block;
  if (!is_record(rec) || PyList_GetItem(rec, REC_KEEP) != Py_True) return 0;
  PoolBase *p = pool_ready(PyList_GetItem(rec, REC_POOL));
  PyObject *cls = PyList_GetItem(rec, REC_CLASS);
  if (!p || !PyLong_CheckExact(cls)) return 0;
  long long c = PyLong_AsLongLong(cls);
  PyObject *lst = c == -1 && PyErr_Occurred() ? NULL : PyDict_GetItemWithError(p->free, cls);
  if (!lst || !PyList_CheckExact(lst) || PyList_Append(lst, rec)) {
    PyErr_Clear();
    return 0;
  }
  a->buf = NULL;
  a->block = NULL;
  Py_DECREF(rec); /* the list holds it */
  p->used -= c;
  p->cached += c;
  return 1;
}

/* A DeviceArray's __del__: its block back to the pool, in C where give_back() can, else
 * through its Python free() (the driver's free, a block held back for a stream...). */
static void array_finalize(PyObject *o) {
  ArrayBase *self = (ArrayBase *)o;
  if (!self->buf) return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  if (!give_back(self)) {
    PyObject *r = str_free ? PyObject_CallMethodObjArgs(o, str_free, NULL) : NULL;
    if (r)
      Py_DECREF(r);
    else if (PyErr_Occurred())
      PyErr_WriteUnraisable(o);
  }
  PyErr_Restore(et, ev, tb);
}

static PyObject *fast_register_pool(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *on, *pinned, *fn;
  if (!PyArg_ParseTuple(args, "O!O!O:register_pool", &PyList_Type, &on, &PySet_Type, &pinned, &fn))
    return NULL;
  Py_INCREF(on);
  SETREF(pool_on_list, on);
  Py_INCREF(pinned);
  SETREF(pinned_set, pinned);
  Py_INCREF(fn);
  SETREF(new_array_py, fn);
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- KernelBase */

/* How a parameter's argument may be converted here; anything else goes to its Python setter.
 * The codes are _core.py's (FAST_* there). */
enum { P_PYTHON = 0, P_BUFFER = 1, P_INT = 2, P_FLOAT = 3, P_DOUBLE = 4, P_TEXOBJ = 5 };

typedef struct {
  int code;
  int et;   /* P_BUFFER: the pointee's element type (0: any); P_INT: the integer's; P_TEXOBJ:
               the parameter's kind (KCRT_PARAM_TEXTURE or KCRT_PARAM_SURFACE) */
  int size; /* P_INT: bytes */
  int is_unsigned;
  long long lo; /* P_INT: range (uint64: [0, LLONG_MAX] here, the rest by the slow test) */
  long long hi;
} Param;

typedef struct {
  PyObject_HEAD PyObject
      *configs;      /* dict: launch configuration tuple -> Launch (Python's _configs) */
  PyObject *setters; /* tuple: one Python setter per parameter (_core.Kernel._setter) */
  PyObject *device;  /* the kcc.Device the kernel is on */
  /* list: per parameter, the texture or surface of the last launch that passed one here, kept
   * alive until another replaces it (the Python setters' `keep`: a kernel may still read it). */
  PyObject *held;
  kcrt_kernel *handle;
  kcrt_arg *args; /* the kernel's argument array (a ctypes array the Kernel keeps) */
  int nparams;
  Param *params;
  PyThread_type_lock lock; /* one launch at a time writes `args` */
} KernelBase;

static int kernel_traverse(KernelBase *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->configs);
  Py_VISIT(self->setters);
  Py_VISIT(self->device);
  Py_VISIT(self->held);
  return 0;
}

static int kernel_clear(KernelBase *self) {
  Py_CLEAR(self->configs);
  Py_CLEAR(self->setters);
  Py_CLEAR(self->device);
  Py_CLEAR(self->held);
  return 0;
}

static void kernel_dealloc(KernelBase *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  kernel_clear(self);
  PyMem_Free(self->params);
  if (self->lock) PyThread_free_lock(self->lock);
  free_object((PyObject *)self, tp);
}

static int int_range(Param *p) {
  static const struct {
    int size, is_unsigned;
  } ints[] = {
      [KCRT_TYPE_INT8] = {1, 0},   [KCRT_TYPE_INT16] = {2, 0},  [KCRT_TYPE_INT32] = {4, 0},
      [KCRT_TYPE_INT64] = {8, 0},  [KCRT_TYPE_UINT8] = {1, 1},  [KCRT_TYPE_UINT16] = {2, 1},
      [KCRT_TYPE_UINT32] = {4, 1}, [KCRT_TYPE_UINT64] = {8, 1},
  };
  if (p->et < KCRT_TYPE_INT8 || p->et > KCRT_TYPE_UINT64) return -1;
  p->size = ints[p->et].size;
  p->is_unsigned = ints[p->et].is_unsigned;
  int bits = p->size * 8;
  if (p->is_unsigned) {
    p->lo = 0;
    p->hi = bits == 64 ? LLONG_MAX : (long long)((1ULL << bits) - 1);
  } else {
    p->lo = bits == 64 ? LLONG_MIN : -(1LL << (bits - 1));
    p->hi = bits == 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
  }
  return 0;
}

/* _fast_setup(handle, args_address, setters, device, codes): called once by Kernel.__init__.
 * codes: one (code, element type) pair per parameter. */
static PyObject *kernel_setup(PyObject *o, PyObject *a) {
  KernelBase *self = (KernelBase *)o;
  PyObject *handle, *args, *setters, *device, *codes;
  if (!PyArg_ParseTuple(a, "OOO!OO!:_fast_setup", &handle, &args, &PyTuple_Type, &setters, &device,
                        &PyTuple_Type, &codes))
    return NULL;
  Py_ssize_t n = PyTuple_Size(setters);
  if (PyTuple_Size(codes) != n || n > INT_MAX) {
    PyErr_SetString(PyExc_ValueError, "_fast_setup: one code per setter");
    return NULL;
  }
  void *h = PyLong_AsVoidPtr(handle);
  if (!h && PyErr_Occurred()) return NULL;
  void *args_p = PyLong_AsVoidPtr(args);
  if (!args_p && PyErr_Occurred()) return NULL;
  Param *params = PyMem_Calloc(n ? (size_t)n : 1, sizeof *params);
  if (!params) return PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < n; i++) {
    Param *p = &params[i];
    if (!PyArg_ParseTuple(PyTuple_GetItem(codes, i), "ii", &p->code, &p->et)) {
      PyMem_Free(params);
      return NULL;
    }
    if (p->code == P_INT && int_range(p)) p->code = P_PYTHON;
    if (p->code == P_TEXOBJ && p->et != KCRT_PARAM_TEXTURE && p->et != KCRT_PARAM_SURFACE)
      p->code = P_PYTHON;
    if (p->code < P_PYTHON || p->code > P_TEXOBJ) p->code = P_PYTHON;
  }
  PyObject *held = PyList_New(n);
  if (!held) {
    PyMem_Free(params);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    Py_INCREF(Py_None);
    PyList_SetItem(held, i, Py_None);
  }
  if (!self->lock && !(self->lock = PyThread_allocate_lock())) {
    Py_DECREF(held);
    PyMem_Free(params);
    PyErr_SetString(PyExc_RuntimeError, "kcc: cannot make a lock");
    return NULL;
  }
  PyMem_Free(self->params);
  self->params = params;
  self->nparams = (int)n;
  self->handle = h;
  self->args = args_p;
  Py_INCREF(setters);
  SETREF(self->setters, setters);
  Py_INCREF(device);
  SETREF(self->device, device);
  SETREF(self->held, held);
  Py_RETURN_NONE;
}

/* kernel[config]: the Launch made for that configuration before, else _configure()'s. */
static PyObject *kernel_subscript(KernelBase *self, PyObject *config) {
  if (self->configs && PyTuple_CheckExact(config)) {
    PyObject *l = PyDict_GetItemWithError(self->configs, config);
    if (l) {
      Py_INCREF(l);
      return l;
    }
    if (PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
      PyErr_Clear(); /* unhashable (a list inside): configured, not kept */
    }
  }
  /* Not PyObject_CallMethod(..., "O", config): a tuple there would be the argument list. */
  PyObject *name = PyUnicode_InternFromString("_configure");
  if (!name) return NULL;
  PyObject *r = PyObject_CallMethodObjArgs((PyObject *)self, name, config, NULL);
  Py_DECREF(name);
  return r;
}

static PyMethodDef kernel_methods[] = {
    {"_fast_setup", kernel_setup, METH_VARARGS,
     "Gives the C launch path the kernel's handle, argument array, setters and codes."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef kernel_members[] = {
    {"_configs", T_OBJECT_EX, offsetof(KernelBase, configs), 0,
     "launch configuration -> launch object"},
    {"_held", T_OBJECT, offsetof(KernelBase, held), READONLY,
     "per parameter, the texture or surface the last launch passed there"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot kernel_slots[] = {
    {Py_tp_doc, "The C side of kcc.Kernel: kernel[grid, block] and the argument array."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, kernel_dealloc},
    {Py_tp_traverse, kernel_traverse},
    {Py_tp_clear, kernel_clear},
    {Py_tp_methods, kernel_methods},
    {Py_tp_members, kernel_members},
    {Py_mp_subscript, kernel_subscript},
    {0, NULL},
};

static PyType_Spec kernel_spec = {
    "kcc._fastlaunch.KernelBase",
    sizeof(KernelBase),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    kernel_slots,
};

static PyObject *kernel_type;

/* ---------------------------------------------------------------- Launch */

typedef struct {
  PyObject_HEAD KernelBase *kernel;
  PyObject *stream; /* the kcc.Stream (kept alive while the configuration is), or None */
  kcrt_dim3 grid, block;
  size_t shared;
  kcrt_queue *queue;
} Launch;

static int launch_traverse(Launch *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->kernel);
  Py_VISIT(self->stream);
  return 0;
}

static int launch_clear(PyObject *o) {
  Launch *self = (Launch *)o;
  Py_CLEAR(self->kernel);
  Py_CLEAR(self->stream);
  return 0;
}

static void launch_dealloc(Launch *self) {
  gc_dealloc((PyObject *)self, launch_clear);
}

/* Launch(kernel, (gx, gy, gz), (bx, by, bz), shared_bytes, queue_handle_or_None, stream):
 * made by Kernel._configure, which has checked every value. */
static int launch_init(Launch *self, PyObject *args, PyObject *kw) {
  PyObject *kernel, *queue, *stream;
  unsigned long long g[3], b[3], shared;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "Launch() takes no keyword arguments");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "O(KKK)(KKK)KOO:Launch", &kernel, &g[0], &g[1], &g[2], &b[0], &b[1],
                        &b[2], &shared, &queue, &stream))
    return -1;
  if (!PyObject_TypeCheck(kernel, (PyTypeObject *)kernel_type)) {
    PyErr_SetString(PyExc_TypeError, "Launch(): not a kernel");
    return -1;
  }
  void *q = NULL;
  if (queue != Py_None && !(q = PyLong_AsVoidPtr(queue)) && PyErr_Occurred()) return -1;
  Py_INCREF(kernel);
  SETREF(self->kernel, (KernelBase *)kernel);
  Py_INCREF(stream);
  SETREF(self->stream, stream);
  self->grid = (kcrt_dim3){g[0], g[1], g[2]};
  self->block = (kcrt_dim3){b[0], b[1], b[2]};
  self->shared = (size_t)shared;
  self->queue = q;
  return 0;
}

/* The handle of a live kcc.Texture (kcc.Surface) on the kernel's device, else NULL (the
 * setter raises the error): a._h not None, a.device the kernel's, a.image._h not None. */
static void *texobj_handle(const KernelBase *k, const Param *p, PyObject *a) {
  PyObject *cls = p->et == KCRT_PARAM_TEXTURE ? texture_cls : surface_cls;
  if (!cls || !PyObject_TypeCheck(a, (PyTypeObject *)cls)) return NULL;
  void *h = NULL;
  PyObject *ho = PyObject_GetAttr(a, str_h);
  PyObject *dev = ho ? PyObject_GetAttr(a, str_device) : NULL;
  PyObject *img = dev ? PyObject_GetAttr(a, str_image) : NULL;
  PyObject *img_h = img ? PyObject_GetAttr(img, str_h) : NULL;
  if (img_h && dev == k->device && PyLong_CheckExact(ho) && img_h != Py_None)
    h = PyLong_AsVoidPtr(ho);
  Py_XDECREF(ho);
  Py_XDECREF(dev);
  Py_XDECREF(img);
  Py_XDECREF(img_h);
  PyErr_Clear(); /* a missing attribute or a bad value: the setter says what is wrong */
  return h;
}

/* An argument converted here, without Python: 1 done, 0 not (its setter decides). */
static int fast_arg(const KernelBase *k, const Param *p, kcrt_arg *slot, PyObject *a) {
  switch (p->code) {
  case P_BUFFER: {
    if ((PyObject *)Py_TYPE(a) != device_array_cls) return 0;
    const ArrayBase *d = (const ArrayBase *)a;
    if (!d->buf || d->device != k->device || (p->et && d->et != p->et)) return 0;
    slot->buffer = d->buf;
    slot->value = NULL;
    slot->size = 0;
    return 1;
  }
  case P_INT: {
    if (!PyLong_CheckExact(a)) return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow > 0 && p->is_unsigned && p->size == 8) {
      unsigned long long u = PyLong_AsUnsignedLongLong(a);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear(); /* beyond 64 bits: the setter says so */
        return 0;
      }
      memcpy((void *)slot->value, &u, 8);
      return 1;
    }
    if (overflow || v < p->lo || v > p->hi) return 0;
    void *dst = (void *)slot->value;
    switch (p->size) {
    case 1: *(int8_t *)dst = (int8_t)v; break;
    case 2: *(int16_t *)dst = (int16_t)v; break;
    case 4: *(int32_t *)dst = (int32_t)v; break;
    default: *(int64_t *)dst = (int64_t)v; break;
    }
    return 1;
  }
  case P_FLOAT:
  case P_DOUBLE: {
    double v;
    if (PyFloat_CheckExact(a))
      v = PyFloat_AsDouble(a);
    else if (PyLong_CheckExact(a)) {
      v = PyLong_AsDouble(a);
      if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear(); /* too large for a double: the setter's error */
        return 0;
      }
    } else
      return 0;
    if (p->code == P_DOUBLE) {
      memcpy((void *)slot->value, &v, sizeof v);
      return 1;
    }
    if (fabs(v) > FLT_MAX && !isinf(v)) return 0; /* out of float's range (NaN passes) */
    float f = (float)v;
    memcpy((void *)slot->value, &f, sizeof f);
    return 1;
  }
  case P_TEXOBJ: {
    /* slot->value is the setter's 8 bytes (texobj_setter points the slot at them when it is
     * made), so both paths write the same place. */
    void *h = texobj_handle(k, p, a);
    if (!h || !slot->value || slot->size != sizeof h || !k->held) return 0;
    memcpy((void *)slot->value, &h, sizeof h);
    slot->buffer = NULL;
    Py_INCREF(a);
    PyList_SetItem(k->held, p - k->params, a); /* the previous one released */
    return 1;
  }
  default: return 0;
  }
}

/* After a launch on a kcc.Stream: each kcc array it used (a view: the array owning the memory)
 * remembers the queue, so that the memory pool does not hand its block to other work before
 * that queue's work is done. */
static void mark_stream_use(PyObject *args, void *q) {
  Py_ssize_t n = PyTuple_Size(args);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = PyTuple_GetItem(args, i);
    if (!array_type_obj || !PyObject_TypeCheck(a, array_type_obj)) continue;
    mark_queue((ArrayBase *)a, q);
    if ((PyObject *)Py_TYPE(a) == device_array_cls) continue;
    PyObject *base = PyObject_GetAttrString(a, "base"); /* a view's owner */
    if (!base)
      PyErr_Clear();
    else {
      if (PyObject_TypeCheck(base, array_type_obj)) mark_queue((ArrayBase *)base, q);
      Py_DECREF(base);
    }
  }
}

static void lock_kernel(KernelBase *k) {
  if (PyThread_acquire_lock(k->lock, NOWAIT_LOCK)) return;
  /* Another thread is launching this kernel, maybe running a Python setter: wait without the
   * GIL so that it can finish. */
  PyThreadState *ts = PyEval_SaveThread();
  PyThread_acquire_lock(k->lock, WAIT_LOCK);
  PyEval_RestoreThread(ts);
}

static PyObject *launch_call(Launch *self, PyObject *args, PyObject *kw) {
  KernelBase *k = self->kernel;
  if (!k || !k->params || !k->setters || !the_launch) {
    /* Launch.__new__ without __init__, a kernel without _fast_setup, or one cleared by the
     * garbage collector: only reachable by going around kcc's classes. */
    PyErr_SetString(PyExc_TypeError, "kcc: a launch object that kcc did not set up");
    return NULL;
  }
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "a kernel launch takes no keyword arguments");
    return NULL;
  }
  Py_ssize_t n = PyTuple_Size(args);
  if (n != k->nparams) {
    PyObject *e = PyObject_CallMethod((PyObject *)k, "_wrong_count", "n", n);
    if (e) {
      PyErr_SetObject((PyObject *)Py_TYPE(e), e);
      Py_DECREF(e);
    }
    return NULL;
  }
  PyObject *posts = NULL; /* what the setters returned: numpy arrays' temporary buffers... */
  PyObject *ret = NULL;
  lock_kernel(k);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = PyTuple_GetItem(args, i);
    if (fast_arg(k, &k->params[i], &k->args[i], a)) continue;
    PyObject *r = PyObject_CallFunctionObjArgs(PyTuple_GetItem(k->setters, i), a, NULL);
    if (!r) goto release;
    if (r != Py_None) {
      if (!posts && !(posts = PyList_New(0))) {
        Py_DECREF(r);
        goto release;
      }
      if (PyList_Append(posts, r)) {
        Py_DECREF(r);
        goto release;
      }
    }
    Py_DECREF(r);
  }
  /* The GIL released: a launch may wait (a full CUDA launch queue), and other threads run. */
  PyThreadState *ts = PyEval_SaveThread();
  kcrt_status st =
      the_launch(k->handle, self->queue, self->grid, self->block, self->shared, k->args, (int)n);
  PyEval_RestoreThread(ts);
  if (!st && self->queue) mark_stream_use(args, self->queue);
  if (st || posts) {
    /* A failure's exception (kcrt_last_error is this thread's), the copies back, the
     * temporary buffers freed: _core.Kernel._after_launch, as on the ctypes path. */
    PyObject *q = self->queue ? PyLong_FromVoidPtr(self->queue) : (Py_INCREF(Py_None), Py_None);
    if (!q) goto release;
    ret = PyObject_CallMethod((PyObject *)k, "_after_launch", "OOi", posts ? posts : Py_None, q,
                              (int)st);
    Py_DECREF(q);
    Py_XDECREF(posts);
    posts = NULL;
  } else {
    Py_INCREF(Py_None);
    ret = Py_None;
  }
release:
  if (posts) { /* a setter failed after others made temporary buffers: free them */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *r = PyObject_CallMethod((PyObject *)k, "_release", "(O)", posts);
    Py_XDECREF(r);
    if (!r) PyErr_Clear(); /* the setter's error is the one to report */
    PyErr_Restore(et, ev, tb);
    Py_DECREF(posts);
  }
  PyThread_release_lock(k->lock);
  return ret;
}

/* repr(kernel[grid, block]), as the ctypes path's _Launch.__repr__ writes it. */
static PyObject *launch_repr(PyObject *o) {
  Launch *self = (Launch *)o;
  PyObject *name = self->kernel ? PyObject_GetAttrString((PyObject *)self->kernel, "name") : NULL;
  if (!name) {
    PyErr_Clear();
    return PyUnicode_FromString("<kcc launch (not set up)>");
  }
  const kcrt_dim3 *g = &self->grid, *b = &self->block;
  PyObject *r = PyUnicode_FromFormat(
      "<kcc launch %S[(%llu, %llu, %llu), (%llu, %llu, %llu), %llu]>", name,
      (unsigned long long)g->x, (unsigned long long)g->y, (unsigned long long)g->z,
      (unsigned long long)b->x, (unsigned long long)b->y, (unsigned long long)b->z,
      (unsigned long long)self->shared);
  Py_DECREF(name);
  return r;
}

static PyMemberDef launch_members[] = {
    {"kernel", T_OBJECT, offsetof(Launch, kernel), READONLY, "the kcc.Kernel"},
    {"stream", T_OBJECT, offsetof(Launch, stream), READONLY, "the kcc.Stream, or None"},
    {"shared", T_ULONGLONG, offsetof(Launch, shared), READONLY, "dynamic shared bytes"},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *launch_dims(PyObject *o, void *closure) {
  Launch *self = (Launch *)o;
  const kcrt_dim3 *d = closure ? &self->block : &self->grid;
  return Py_BuildValue("(KKK)", (unsigned long long)d->x, (unsigned long long)d->y,
                       (unsigned long long)d->z);
}

static PyGetSetDef launch_getset[] = {
    {"grid", launch_dims, NULL, "(x, y, z)", NULL},
    {"block", launch_dims, NULL, "(x, y, z)", (void *)1},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot launch_slots[] = {
    {Py_tp_doc, "kernel[grid, block]: call it with the kernel's arguments to launch."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, launch_init},
    {Py_tp_dealloc, launch_dealloc},
    {Py_tp_traverse, launch_traverse},
    {Py_tp_clear, launch_clear},
    {Py_tp_call, launch_call},
    {Py_tp_repr, launch_repr},
    {Py_tp_members, launch_members},
    {Py_tp_getset, launch_getset},
    {0, NULL},
};

static PyType_Spec launch_spec = {
    "kcc._fastlaunch.Launch",
    sizeof(Launch),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    launch_slots,
};

/* ---------------------------------------------------------------- BinaryOp
 * An array operator's direct path (kcc/_array.py, _SAME): `x + y` of whole kcc arrays and
 * Python scalars, once _binary has found the operands' kinds a plan that takes them as they
 * are, is one C call: the operands matched against the entries _binary handed over, the result
 * made from the memory pool (new_array), the plan's launch. Anything else, or any check that
 * fails (a freed array, a scalar outside the range the launch converts exactly), is _binary's
 * (the fallback), which raises what it raises and may hand over another entry.
 *
 * An entry is the tuple (x kind, x shape, y kind, y shape, device, launch, trailing values,
 * lo, hi, pool, result layout, result shape, result dtype): an operand's kind is its dtype
 * (an array, shape its shape tuple) or its Python type (a scalar, shape None); device the
 * _core._current it holds for; lo and hi the scalars' range; layout as new_array's. */
enum { OP_MEMO = 8 };
enum {
  E_XK,
  E_XSHAPE,
  E_YK,
  E_YSHAPE,
  E_DEV,
  E_LAUNCH,
  E_REST,
  E_LO,
  E_HI,
  E_POOL,
  E_LAY,
  E_ZSHAPE,
  E_ZDTYPE,
  E_N
};

typedef struct {
  PyObject_HEAD PyObject *fallback; /* _binary for this operator: fallback(x, y) */
  PyObject *core;                   /* kcc._core: its _current */
  PyObject *memo[OP_MEMO];          /* entries, replaced in turn */
  int next;
} BinaryOp;

static PyTypeObject *launch_type_obj;
static PyObject *str_current; /* (defined with JitLaunchBase's names) */

static int binop_traverse(BinaryOp *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->fallback);
  Py_VISIT(self->core);
  for (int i = 0; i < OP_MEMO; i++) Py_VISIT(self->memo[i]);
  return 0;
}

static int binop_clear(PyObject *o) {
  BinaryOp *self = (BinaryOp *)o;
  Py_CLEAR(self->fallback);
  Py_CLEAR(self->core);
  for (int i = 0; i < OP_MEMO; i++) Py_CLEAR(self->memo[i]);
  return 0;
}

static void binop_dealloc(BinaryOp *self) {
  gc_dealloc((PyObject *)self, binop_clear);
}

/* BinaryOp(fallback, core). */
static int binop_init(PyObject *o, PyObject *args, PyObject *kw) {
  BinaryOp *self = (BinaryOp *)o;
  PyObject *fallback, *core;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "BinaryOp() takes no keyword arguments");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OO:BinaryOp", &fallback, &core)) return -1;
  Py_INCREF(fallback);
  SETREF(self->fallback, fallback);
  Py_INCREF(core);
  SETREF(self->core, core);
  return 0;
}

/* Whether operand v is of kind k (shape: an array's; None: a scalar's type). */
static int operand_is(PyObject *v, PyObject *k, PyObject *shape) {
  if (shape == Py_None) return (PyObject *)Py_TYPE(v) == k;
  if ((PyObject *)Py_TYPE(v) != device_array_cls) return 0;
  const ArrayBase *a = (const ArrayBase *)v;
  return a->dtype == k && a->shape && same_value(a->shape, shape);
}

/* Whether the launch takes operand v as it is: an array not freed, a scalar in [lo, hi]. */
static int operand_ok(PyObject *v, PyObject *shape, PyObject *lo, PyObject *hi) {
  if (shape != Py_None) return ((const ArrayBase *)v)->buf != NULL;
  int r = PyObject_RichCompareBool(lo, v, Py_LE);
  if (r == 1) r = PyObject_RichCompareBool(v, hi, Py_LE);
  if (r < 0) PyErr_Clear();
  return r == 1;
}

static int valid_entry(PyObject *e) {
  if (!PyTuple_CheckExact(e) || PyTuple_Size(e) != E_N) return 0;
  for (int s = E_XSHAPE; s <= E_YSHAPE; s += E_YSHAPE - E_XSHAPE) {
    PyObject *shape = PyTuple_GetItem(e, s), *k = PyTuple_GetItem(e, s - 1);
    if (shape == Py_None ? !PyType_Check(k) : !PyTuple_CheckExact(shape)) return 0;
  }
  PyObject *lay = PyTuple_GetItem(e, E_LAY);
  return Py_TYPE(PyTuple_GetItem(e, E_LAUNCH)) == launch_type_obj &&
         PyTuple_CheckExact(PyTuple_GetItem(e, E_REST)) && PyTuple_CheckExact(lay) &&
         PyTuple_Size(lay) == 7;
}

/* Whether two entries are for the same operand kinds and device: the shapes (odd indices)
 * compared by value, the rest by identity, as operand_is() compares them. */
static int same_kinds(PyObject *a, PyObject *b) {
  for (int i = E_XK; i <= E_DEV; i++) {
    PyObject *u = PyTuple_GetItem(a, i), *v = PyTuple_GetItem(b, i);
    if (u != v && !(i % 2 && same_value(u, v))) return 0;
  }
  return 1;
}

/* op._remember(entry): _binary's direct path for these operand kinds, from now on in C. */
static PyObject *binop_remember(PyObject *o, PyObject *e) {
  BinaryOp *self = (BinaryOp *)o;
  if (!valid_entry(e)) {
    PyErr_SetString(PyExc_TypeError, "BinaryOp._remember: not an entry");
    return NULL;
  }
  int slot = -1;
  for (int i = 0; i < OP_MEMO && slot < 0; i++)
    if (self->memo[i] && same_kinds(self->memo[i], e)) slot = i;
  if (slot < 0) {
    slot = self->next;
    self->next = (self->next + 1) % OP_MEMO;
  }
  Py_INCREF(e);
  SETREF(self->memo[slot], e);
  Py_RETURN_NONE;
}

/* An operation's result: new_array's, else (no kept block to take) _core._new_array's. */
static PyObject *result_array(PyObject *pool, PyObject *dev, PyObject *lay, PyObject *shape,
                              PyObject *dtype) {
  PyObject *z = new_array(pool, dev, lay, shape, dtype);
  if (z != Py_None) return z;
  Py_DECREF(z);
  if (!new_array_py) {
    PyErr_SetString(PyExc_TypeError, "kcc: the memory pool was not registered");
    return NULL;
  }
  return PyObject_CallFunctionObjArgs(new_array_py, shape, dtype, dev, NULL);
}

/* The entry's launch with x, y and a new result: the result, Py_None (a new reference) when
 * the operands are not the launch's to take, NULL with the launch's exception. */
static PyObject *binop_run(PyObject *e, PyObject *x, PyObject *y) {
  PyObject *lo = PyTuple_GetItem(e, E_LO), *hi = PyTuple_GetItem(e, E_HI);
  if (!operand_ok(x, PyTuple_GetItem(e, E_XSHAPE), lo, hi) ||
      !operand_ok(y, PyTuple_GetItem(e, E_YSHAPE), lo, hi))
    Py_RETURN_NONE;
  PyObject *dev = PyTuple_GetItem(e, E_DEV), *shape = PyTuple_GetItem(e, E_ZSHAPE),
           *dtype = PyTuple_GetItem(e, E_ZDTYPE);
  PyObject *z =
      result_array(PyTuple_GetItem(e, E_POOL), dev, PyTuple_GetItem(e, E_LAY), shape, dtype);
  if (!z) return NULL;
  PyObject *rest = PyTuple_GetItem(e, E_REST);
  Py_ssize_t nrest = PyTuple_Size(rest);
  PyObject *call = PyTuple_New(3 + nrest);
  if (!call) {
    Py_DECREF(z);
    return NULL;
  }
  PyObject *first[3] = {x, y, z};
  for (int i = 0; i < 3; i++) {
    Py_INCREF(first[i]);
    PyTuple_SetItem(call, i, first[i]);
  }
  for (Py_ssize_t i = 0; i < nrest; i++) {
    PyObject *v = PyTuple_GetItem(rest, i);
    Py_INCREF(v);
    PyTuple_SetItem(call, 3 + i, v);
  }
  PyObject *r = launch_call((Launch *)PyTuple_GetItem(e, E_LAUNCH), call, NULL);
  Py_DECREF(call);
  if (!r) {
    Py_DECREF(z);
    return NULL;
  }
  Py_DECREF(r);
  return z;
}

/* x OP y: the direct path, else the fallback. */
static PyObject *binop_apply(BinaryOp *self, PyObject *x, PyObject *y) {
  if (!self->fallback || !self->core) {
    PyErr_SetString(PyExc_TypeError, "kcc: an operator that kcc did not set up");
    return NULL;
  }
  PyObject *current = NULL;
  for (int i = 0; i < OP_MEMO; i++) {
    PyObject *e = self->memo[i];
    if (!e || !operand_is(x, PyTuple_GetItem(e, E_XK), PyTuple_GetItem(e, E_XSHAPE)) ||
        !operand_is(y, PyTuple_GetItem(e, E_YK), PyTuple_GetItem(e, E_YSHAPE)))
      continue;
    if (!current && !(current = PyObject_GetAttr(self->core, str_current))) return NULL;
    if (PyTuple_GetItem(e, E_DEV) != current) continue;
    Py_DECREF(current);
    Py_INCREF(e); /* the launch may run Python that replaces the entry */
    PyObject *z = binop_run(e, x, y);
    Py_DECREF(e);
    if (z != Py_None) return z;
    Py_DECREF(z);
    return PyObject_CallFunctionObjArgs(self->fallback, x, y, NULL);
  }
  Py_XDECREF(current);
  return PyObject_CallFunctionObjArgs(self->fallback, x, y, NULL);
}

/* op(x, y): x OP y. */
static PyObject *binop_call(PyObject *o, PyObject *args, PyObject *kw) {
  PyObject *x, *y;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "a kcc operator takes no keyword arguments");
    return NULL;
  }
  if (!PyArg_UnpackTuple(args, "operator", 2, 2, &x, &y)) return NULL;
  return binop_apply((BinaryOp *)o, x, y);
}

static PyMethodDef binop_methods[] = {
    {"_remember", binop_remember, METH_O,
     "_remember(entry): the direct path for the entry's operand kinds (_array._binary)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot binop_slots[] = {
    {Py_tp_doc, "An array operator's direct path: op(x, y) is x OP y (kcc/_array.py)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, binop_init},
    {Py_tp_dealloc, binop_dealloc},
    {Py_tp_traverse, binop_traverse},
    {Py_tp_clear, binop_clear},
    {Py_tp_call, binop_call},
    {Py_tp_methods, binop_methods},
    {0, NULL},
};

static PyType_Spec binop_spec = {
    "kcc._fastlaunch.BinaryOp",
    sizeof(BinaryOp),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    binop_slots,
};

/* ---------------------------------------------------------------- ReduceOp
 * A whole-array reduction's direct path (`x.sum()`, kcc/_array.py's _FAST_REDUCE): as BinaryOp,
 * for the reductions of a whole kcc array with the defaults (no axis, dtype, keepdims or out),
 * once the ReductionKernel has a plan for it. An entry is the tuple (dtype, shape, element
 * strides, device, pool, result layout, result shape, result dtype, temporary, launches):
 * temporary None or (layout, shape, dtype) of the partial results of a reduction in two
 * launches; launches a tuple of (launch, sources), each source a (kind, value) pair as the
 * plan's (_elementwise.py, ReductionKernel._run_plan): 0 the array, 2 its offset, 3 the value,
 * 4 the result, 5 the temporary. */
enum { R_XK, R_XSHAPE, R_XST, R_DEV, R_POOL, R_LAY, R_ZSHAPE, R_ZDTYPE, R_TMP, R_LAUNCHES, R_N };

static int valid_reduce_entry(PyObject *e) {
  if (!PyTuple_CheckExact(e) || PyTuple_Size(e) != R_N ||
      !PyTuple_CheckExact(PyTuple_GetItem(e, R_XSHAPE)) ||
      !PyTuple_CheckExact(PyTuple_GetItem(e, R_XST)))
    return 0;
  PyObject *lay = PyTuple_GetItem(e, R_LAY), *tmp = PyTuple_GetItem(e, R_TMP),
           *launches = PyTuple_GetItem(e, R_LAUNCHES);
  if (!PyTuple_CheckExact(lay) || PyTuple_Size(lay) != 7) return 0;
  if (tmp != Py_None && (!PyTuple_CheckExact(tmp) || PyTuple_Size(tmp) != 3)) return 0;
  if (!PyTuple_CheckExact(launches)) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_Size(launches); i++) {
    PyObject *l = PyTuple_GetItem(launches, i);
    if (!PyTuple_CheckExact(l) || PyTuple_Size(l) != 2 ||
        Py_TYPE(PyTuple_GetItem(l, 0)) != launch_type_obj ||
        !PyTuple_CheckExact(PyTuple_GetItem(l, 1)))
      return 0;
    PyObject *src = PyTuple_GetItem(l, 1);
    for (Py_ssize_t j = 0; j < PyTuple_Size(src); j++) {
      PyObject *kv = PyTuple_GetItem(src, j);
      if (!PyTuple_CheckExact(kv) || PyTuple_Size(kv) != 2) return 0;
      long kind = PyLong_AsLong(PyTuple_GetItem(kv, 0));
      if (kind < 0 || kind == 1 || kind > 5 || (kind == 5 && tmp == Py_None)) {
        PyErr_Clear();
        return 0;
      }
    }
  }
  return 1;
}

/* The entry's launches for x: the result, Py_None when x is freed, NULL with an exception. */
static PyObject *reduce_run(PyObject *e, PyObject *x) {
  if (!((const ArrayBase *)x)->buf) Py_RETURN_NONE;
  PyObject *pool = PyTuple_GetItem(e, R_POOL), *dev = PyTuple_GetItem(e, R_DEV),
           *tmp = PyTuple_GetItem(e, R_TMP), *launches = PyTuple_GetItem(e, R_LAUNCHES);
  PyObject *z = result_array(pool, dev, PyTuple_GetItem(e, R_LAY), PyTuple_GetItem(e, R_ZSHAPE),
                             PyTuple_GetItem(e, R_ZDTYPE));
  if (!z) return NULL;
  PyObject *partial = NULL;
  if (tmp != Py_None &&
      !(partial = result_array(pool, dev, PyTuple_GetItem(tmp, 0), PyTuple_GetItem(tmp, 1),
                               PyTuple_GetItem(tmp, 2)))) {
    Py_DECREF(z);
    return NULL;
  }
  PyObject *off = ((const ArrayBase *)x)->off; /* held: a launch may run Python */
  off = off ? off : int_zero;
  Py_INCREF(off);
  for (Py_ssize_t i = 0; i < PyTuple_Size(launches); i++) {
    PyObject *l = PyTuple_GetItem(launches, i), *src = PyTuple_GetItem(l, 1);
    Py_ssize_t n = PyTuple_Size(src);
    PyObject *call = PyTuple_New(n);
    if (!call) goto fail;
    for (Py_ssize_t j = 0; j < n; j++) {
      PyObject *kv = PyTuple_GetItem(src, j), *v = PyTuple_GetItem(kv, 1);
      switch (PyLong_AsLong(PyTuple_GetItem(kv, 0))) { /* checked by valid_reduce_entry */
      case 0: v = x; break;
      case 2: v = off; break;
      case 4: v = z; break;
      case 5: v = partial; break;
      default: break;
      }
      Py_INCREF(v);
      PyTuple_SetItem(call, j, v);
    }
    PyObject *r = launch_call((Launch *)PyTuple_GetItem(l, 0), call, NULL);
    Py_DECREF(call);
    if (!r) goto fail;
    Py_DECREF(r);
  }
  Py_DECREF(off);
  Py_XDECREF(partial);
  return z;
fail:
  Py_DECREF(off);
  Py_XDECREF(partial);
  Py_DECREF(z);
  return NULL;
}

/* op._remember(entry) and op(x): as BinaryOp's, with one operand. */
static PyObject *reduce_remember(PyObject *o, PyObject *e) {
  BinaryOp *self = (BinaryOp *)o;
  if (!valid_reduce_entry(e)) {
    PyErr_SetString(PyExc_TypeError, "ReduceOp._remember: not an entry");
    return NULL;
  }
  int slot = -1;
  for (int i = 0; i < OP_MEMO && slot < 0; i++) {
    PyObject *m = self->memo[i];
    if (m && PyTuple_GetItem(m, R_XK) == PyTuple_GetItem(e, R_XK) &&
        PyTuple_GetItem(m, R_DEV) == PyTuple_GetItem(e, R_DEV) &&
        same_value(PyTuple_GetItem(m, R_XSHAPE), PyTuple_GetItem(e, R_XSHAPE)) &&
        same_value(PyTuple_GetItem(m, R_XST), PyTuple_GetItem(e, R_XST)))
      slot = i;
  }
  if (slot < 0) {
    slot = self->next;
    self->next = (self->next + 1) % OP_MEMO;
  }
  Py_INCREF(e);
  SETREF(self->memo[slot], e);
  Py_RETURN_NONE;
}

static PyObject *reduce_apply(BinaryOp *self, PyObject *x) {
  if (!self->fallback || !self->core) {
    PyErr_SetString(PyExc_TypeError, "kcc: a reduction that kcc did not set up");
    return NULL;
  }
  if ((PyObject *)Py_TYPE(x) == device_array_cls) {
    const ArrayBase *a = (const ArrayBase *)x;
    PyObject *current = NULL;
    for (int i = 0; i < OP_MEMO; i++) {
      PyObject *e = self->memo[i];
      if (!e || a->dtype != PyTuple_GetItem(e, R_XK) || !a->shape || !a->st ||
          !same_value(a->shape, PyTuple_GetItem(e, R_XSHAPE)) ||
          !same_value(a->st, PyTuple_GetItem(e, R_XST)) || !a->off ||
          !same_value(a->off, int_zero) || (a->base && a->base != Py_None))
        continue;
      if (!current && !(current = PyObject_GetAttr(self->core, str_current))) return NULL;
      if (PyTuple_GetItem(e, R_DEV) != current) continue;
      Py_DECREF(current);
      Py_INCREF(e);
      PyObject *z = reduce_run(e, x);
      Py_DECREF(e);
      if (z != Py_None) return z;
      Py_DECREF(z);
      return PyObject_CallFunctionObjArgs(self->fallback, x, NULL);
    }
    Py_XDECREF(current);
  }
  return PyObject_CallFunctionObjArgs(self->fallback, x, NULL);
}

static PyObject *reduce_call(PyObject *o, PyObject *args, PyObject *kw) {
  PyObject *x;
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "a kcc reduction's direct path takes no keyword arguments");
    return NULL;
  }
  if (!PyArg_UnpackTuple(args, "reduction", 1, 1, &x)) return NULL;
  return reduce_apply((BinaryOp *)o, x);
}

static PyMethodDef reduce_methods[] = {
    {"_remember", reduce_remember, METH_O,
     "_remember(entry): the direct path for the entry's array kind (_array._reduce_default)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot reduce_slots[] = {
    {Py_tp_doc, "A whole-array reduction's direct path: op(x) is x.sum() (kcc/_array.py)."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, binop_init},
    {Py_tp_dealloc, binop_dealloc},
    {Py_tp_traverse, binop_traverse},
    {Py_tp_clear, binop_clear},
    {Py_tp_call, reduce_call},
    {Py_tp_methods, reduce_methods},
    {0, NULL},
};

static PyType_Spec reduce_spec = {
    "kcc._fastlaunch.ReduceOp",
    sizeof(BinaryOp),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    reduce_slots,
};

/* ---------------------------------------------------------------- ArrayBase's operators
 * `x + y`, `x < y`, `-x` on kcc arrays: ArrayBase's number and comparison slots call the
 * operator's BinaryOp (ReduceOp for the unary ones, whose entries have the same form) that
 * _array.py registered, so the interpreter goes from the expression to the direct path in C.
 * With `__add__` a Python method that called the BinaryOp, the way from C's slot into a Python
 * frame and back was half of `x + y`'s host cost (0.99 against 0.46 µs for the BinaryOp called
 * directly, bench/python_overhead.py's stubbed launch). The slots take both orders (`2 * x`
 * is mul(2, x)), which is what the Python methods' reflected forms did; whatever the direct
 * path does not take goes to the operator's fallback, _array._binary (or _unary), which may
 * answer NotImplemented. Without registered operators they answer NotImplemented. */
enum {
  O_ADD,
  O_SUB,
  O_MUL,
  O_TRUEDIV,
  O_FLOORDIV,
  O_MOD,
  O_POW,
  O_AND,
  O_OR,
  O_XOR,
  O_LSHIFT,
  O_RSHIFT,
  O_LT,
  O_LE,
  O_EQ,
  O_NE,
  O_GT,
  O_GE,
  O_NEGATIVE,
  O_ABSOLUTE,
  O_INVERT,
  O_N
};
/* _array.py's names, in the order above (its _BINARY's and _unary's). */
static const char *const op_names[O_N] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod",      "pow",
    "and", "or",  "xor", "lshift",  "rshift",   "lt",       "le",
    "eq",  "ne",  "gt",  "ge",      "negative", "absolute", "invert"};
static PyObject *ops[O_N]; /* BinaryOp (ReduceOp from O_NEGATIVE on) per operator, or NULL */
static PyTypeObject *binop_type_obj, *reduce_type_obj;

static PyObject *array_binary(int which, PyObject *x, PyObject *y) {
  if (!ops[which]) Py_RETURN_NOTIMPLEMENTED;
  PyObject *op = ops[which];
  Py_INCREF(op); /* the fallback may register another */
  PyObject *r = binop_apply((BinaryOp *)op, x, y);
  Py_DECREF(op);
  return r;
}

static PyObject *array_unary(int which, PyObject *x) {
  if (!ops[which]) Py_RETURN_NOTIMPLEMENTED;
  PyObject *op = ops[which];
  Py_INCREF(op);
  PyObject *r = reduce_apply((BinaryOp *)op, x);
  Py_DECREF(op);
  return r;
}

#define ARRAY_BINARY(fn, which)                                                                    \
  static PyObject *fn(PyObject *x, PyObject *y) {                                                  \
    return array_binary(which, x, y);                                                              \
  }
ARRAY_BINARY(array_add, O_ADD)
ARRAY_BINARY(array_sub, O_SUB)
ARRAY_BINARY(array_mul, O_MUL)
ARRAY_BINARY(array_truediv, O_TRUEDIV)
ARRAY_BINARY(array_floordiv, O_FLOORDIV)
ARRAY_BINARY(array_mod, O_MOD)
ARRAY_BINARY(array_and, O_AND)
ARRAY_BINARY(array_or, O_OR)
ARRAY_BINARY(array_xor, O_XOR)
ARRAY_BINARY(array_lshift, O_LSHIFT)
ARRAY_BINARY(array_rshift, O_RSHIFT)

/* pow(x, y, m) has no NumPy meaning for arrays: NotImplemented, so Python's TypeError. */
static PyObject *array_pow(PyObject *x, PyObject *y, PyObject *m) {
  if (m != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return array_binary(O_POW, x, y);
}

static PyObject *array_negative(PyObject *x) {
  return array_unary(O_NEGATIVE, x);
}

static PyObject *array_absolute(PyObject *x) {
  return array_unary(O_ABSOLUTE, x);
}

static PyObject *array_invert(PyObject *x) {
  return array_unary(O_INVERT, x);
}

/* x OP y for a comparison: Python passes the array first (y < x arrives as x > y). */
static PyObject *array_richcompare(PyObject *x, PyObject *y, int op) {
  switch (op) {
  case Py_LT: return array_binary(O_LT, x, y);
  case Py_LE: return array_binary(O_LE, x, y);
  case Py_EQ: return array_binary(O_EQ, x, y);
  case Py_NE: return array_binary(O_NE, x, y);
  case Py_GT: return array_binary(O_GT, x, y);
  case Py_GE: return array_binary(O_GE, x, y);
  default: Py_RETURN_NOTIMPLEMENTED;
  }
}

/* register_ops({name: op}): the operators ArrayBase's slots call; a name left out answers
 * NotImplemented. Checked whole before anything changes. */
static PyObject *fast_register_ops(PyObject *m, PyObject *d) {
  (void)m;
  if (!PyDict_Check(d)) {
    PyErr_SetString(PyExc_TypeError, "register_ops takes a dict {name: operator}");
    return NULL;
  }
  PyObject *got[O_N];
  Py_ssize_t known = 0;
  for (int i = 0; i < O_N; i++) {
    got[i] = PyDict_GetItemString(d, op_names[i]); /* borrowed */
    PyTypeObject *want = i < O_NEGATIVE ? binop_type_obj : reduce_type_obj;
    if (got[i] && (!want || Py_TYPE(got[i]) != want)) {
      PyErr_Format(PyExc_TypeError, "register_ops: '%s' is not a kcc._fastlaunch.%s", op_names[i],
                   i < O_NEGATIVE ? "BinaryOp" : "ReduceOp");
      return NULL;
    }
    known += got[i] != NULL;
  }
  if (known != PyDict_Size(d)) {
    PyErr_SetString(PyExc_KeyError, "register_ops: an operator name kcc does not know");
    return NULL;
  }
  for (int i = 0; i < O_N; i++) {
    Py_XINCREF(got[i]);
    SETREF(ops[i], got[i]);
  }
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- JitLaunchBase
 * The base of kcc.jit's configured launch (kernel[grid, block] of a @kcc.jit function,
 * _jitdispatch._FastConfigured). A call picks the specialisation for its arguments' types and
 * launches it, as _Configured does in Python, without running Python when this configuration
 * has met these types before: the key is each argument's class (and an array-like's dtype and
 * number of dimensions), the entry a tuple (device, launch, plan, spec, shared):
 *   device  the kcc.Device the launch's kernel is on: the entry holds while it is
 *           _core._current (the current device when this thread made it)
 *   launch  the specialisation's kernel[grid, block, shared, stream] (a Launch)
 *   plan    bytes, one per argument: 0 passed as it is, 1 an array followed by each extent of
 *           its shape (the generated kernel's extra parameters), 2 passed as int(x) (bools)
 *   spec    the specialisation, for _failed
 *   shared  the dynamic shared bytes, appended as the last argument; None when the kernel
 *           has no dynamic shared array
 * Anything else (a first call, another device, a Python int beyond int64 whose type depends on
 * its value) goes to _miss(key, args), Python's path, which launches and may add the entry;
 * a launch's exception goes to _failed(spec, exc), which raises it with the Python names. */
enum { JIT_MAX_ARGS = 16 }; /* arguments compared with the last call's without a key */

/* What a call needs of one argument: its class, and an array-like's dtype and shape. */
typedef struct {
  PyTypeObject *type;
  PyObject *dtype, *shape; /* new references, or NULL (a scalar) */
  PyObject *ndim;          /* when shape is not a tuple: getattr(a, 'ndim', None) */
} JitArg;

typedef struct {
  PyObject_HEAD PyObject *cache; /* key tuple -> entry */
  PyObject *core;                /* kcc._core: its _current */
  /* The last call's argument classes and dtypes (held, compared by identity) and numbers of
   * dimensions: a call that matches them takes last_entry without building a key. */
  PyObject *last_entry;
  Py_ssize_t last_n;
  PyTypeObject *last_type[JIT_MAX_ARGS];
  PyObject *last_dtype[JIT_MAX_ARGS];
  Py_ssize_t last_ndim[JIT_MAX_ARGS];
} JitBase;

static PyObject *str_dtype, *str_shape, *str_ndim, *str_current, *str_miss, *str_failed;

static int jit_traverse(JitBase *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(self->cache);
  Py_VISIT(self->core);
  Py_VISIT(self->last_entry);
  if (self->last_entry)
    for (Py_ssize_t i = 0; i < self->last_n; i++) {
      Py_VISIT(self->last_type[i]);
      Py_VISIT(self->last_dtype[i]);
    }
  return 0;
}

static void jit_forget(JitBase *self) {
  if (self->last_entry)
    for (Py_ssize_t i = 0; i < self->last_n; i++) {
      Py_CLEAR(self->last_type[i]);
      Py_CLEAR(self->last_dtype[i]);
    }
  Py_CLEAR(self->last_entry);
}

static int jit_clear(PyObject *o) {
  JitBase *self = (JitBase *)o;
  Py_CLEAR(self->cache);
  Py_CLEAR(self->core);
  jit_forget(self);
  return 0;
}

static void jit_dealloc(JitBase *self) {
  gc_dealloc((PyObject *)self, jit_clear);
}

/* getattr(o, name, None), a new reference. */
static PyObject *attr_or_none(PyObject *o, PyObject *name) {
  PyObject *v = PyObject_GetAttr(o, name);
  if (!v) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return NULL;
    PyErr_Clear();
    Py_INCREF(Py_None);
    v = Py_None;
  }
  return v;
}

/* Fills *x for argument a; -1 with an exception. *slow is set for an int whose type depends on
 * its value (beyond int64). */
static int jit_arg(PyObject *a, JitArg *x, int *slow) {
  PyTypeObject *t = Py_TYPE(a);
  *x = (JitArg){t, NULL, NULL, NULL};
  if (t == &PyFloat_Type || t == &PyBool_Type) return 0;
  if (t == &PyLong_Type) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow) *slow = 1;
    return 0;
  }
  if (!(x->dtype = attr_or_none(a, str_dtype)) || !(x->shape = attr_or_none(a, str_shape)))
    return -1;
  if (!PyTuple_Check(x->shape) && !(x->ndim = attr_or_none(a, str_ndim))) return -1;
  return 0;
}

static void jit_args_free(JitArg *x, Py_ssize_t n) {
  for (Py_ssize_t i = 0; i < n; i++) {
    Py_XDECREF(x[i].dtype);
    Py_XDECREF(x[i].shape);
    Py_XDECREF(x[i].ndim);
  }
}

static Py_ssize_t jit_ndim(const JitArg *x) {
  return x->shape && PyTuple_Check(x->shape) ? PyTuple_Size(x->shape) : -1;
}

/* The key of the cache: per argument its class, or (class, dtype, ndim) for an array-like. */
static PyObject *jit_key(const JitArg *x, Py_ssize_t n) {
  PyObject *key = PyTuple_New(n);
  for (Py_ssize_t i = 0; key && i < n; i++) {
    PyObject *item;
    if (!x[i].dtype) {
      Py_INCREF(x[i].type);
      item = (PyObject *)x[i].type;
    } else {
      PyObject *nd =
          x[i].ndim ? (Py_INCREF(x[i].ndim), x[i].ndim) : PyLong_FromSsize_t(jit_ndim(&x[i]));
      item = nd ? PyTuple_Pack(3, (PyObject *)x[i].type, x[i].dtype, nd) : NULL;
      Py_XDECREF(nd);
    }
    if (!item)
      Py_CLEAR(key);
    else
      PyTuple_SetItem(key, i, item); /* steals */
  }
  return key;
}

/* Whether the arguments are the last call's kinds (same classes and dtypes, same ndim). */
static int jit_same_as_last(const JitBase *self, const JitArg *x, Py_ssize_t n) {
  if (!self->last_entry || self->last_n != n) return 0;
  for (Py_ssize_t i = 0; i < n; i++)
    if (self->last_type[i] != x[i].type || self->last_dtype[i] != x[i].dtype ||
        (x[i].dtype && (x[i].ndim || self->last_ndim[i] != jit_ndim(&x[i]))))
      return 0;
  return 1;
}

static void jit_remember(JitBase *self, const JitArg *x, Py_ssize_t n, PyObject *entry) {
  jit_forget(self);
  if (n > JIT_MAX_ARGS) return;
  for (Py_ssize_t i = 0; i < n; i++)
    if (x[i].ndim) return; /* no tuple shape: compared through the key only */
  for (Py_ssize_t i = 0; i < n; i++) {
    Py_INCREF(x[i].type);
    self->last_type[i] = x[i].type;
    Py_XINCREF(x[i].dtype);
    self->last_dtype[i] = x[i].dtype;
    self->last_ndim[i] = jit_ndim(&x[i]);
  }
  self->last_n = n;
  Py_INCREF(entry);
  self->last_entry = entry;
}

/* Launches entry's kernel with args expanded by its plan. */
static PyObject *jit_launch(JitBase *self, PyObject *entry, PyObject *args, const JitArg *x,
                            Py_ssize_t n) {
  PyObject *launch = PyTuple_GetItem(entry, 1), *plan = PyTuple_GetItem(entry, 2),
           *spec = PyTuple_GetItem(entry, 3), *shared = PyTuple_GetItem(entry, 4);
  char *codes;
  Py_ssize_t ncodes;
  if (PyBytes_AsStringAndSize(plan, &codes, &ncodes)) return NULL;
  Py_ssize_t m = n + (shared != Py_None);
  for (Py_ssize_t i = 0; i < n && i < ncodes; i++)
    if (codes[i] == 1) {
      if (jit_ndim(&x[i]) < 0) /* an array-like without a shape tuple: Python's path */
        return PyObject_CallMethodObjArgs((PyObject *)self, str_miss, Py_None, args, NULL);
      m += jit_ndim(&x[i]);
    }
  if (ncodes != n) {
    PyErr_SetString(PyExc_TypeError, "kcc.jit: a malformed launch plan");
    return NULL;
  }
  PyObject *call = PyTuple_New(m);
  if (!call) return NULL;
  Py_ssize_t j = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *a = PyTuple_GetItem(args, i), *v;
    if (codes[i] == 2) {
      if (!(v = PyNumber_Long(a))) {
        Py_DECREF(call);
        return NULL;
      }
    } else {
      Py_INCREF(a);
      v = a;
    }
    PyTuple_SetItem(call, j++, v);
    if (codes[i] == 1)
      for (Py_ssize_t d = 0; d < PyTuple_Size(x[i].shape); d++) {
        PyObject *e = PyTuple_GetItem(x[i].shape, d);
        Py_INCREF(e);
        PyTuple_SetItem(call, j++, e);
      }
  }
  if (shared != Py_None) {
    Py_INCREF(shared);
    PyTuple_SetItem(call, j++, shared);
  }
  PyObject *ret = PyObject_Call(launch, call, NULL);
  Py_DECREF(call);
  if (!ret) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyErr_NormalizeException(&et, &ev, &tb);
    if (tb) PyException_SetTraceback(ev, tb);
    PyObject *r = PyObject_CallMethodObjArgs((PyObject *)self, str_failed, spec, ev, NULL);
    if (r) { /* _failed always raises; should it not, the launch's own exception stands */
      Py_DECREF(r);
      PyErr_Restore(et, ev, tb);
    } else {
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
    }
  }
  return ret;
}

static PyObject *jit_call(JitBase *self, PyObject *args, PyObject *kw) {
  if (kw && PyDict_Size(kw)) {
    PyErr_SetString(PyExc_TypeError, "a kernel launch takes no keyword arguments");
    return NULL;
  }
  if (!self->cache || !self->core || !PyDict_Check(self->cache)) {
    PyErr_SetString(PyExc_TypeError, "kcc: a launch object that kcc did not set up");
    return NULL;
  }
  Py_ssize_t n = PyTuple_Size(args), got = 0;
  JitArg small[JIT_MAX_ARGS], *x = small;
  if (n > JIT_MAX_ARGS && !(x = PyMem_Malloc(sizeof *x * (size_t)n))) return PyErr_NoMemory();
  PyObject *ret = NULL, *key = NULL, *current = NULL, *entry = NULL;
  int slow = 0;
  for (; got < n; got++)
    if (jit_arg(PyTuple_GetItem(args, got), &x[got], &slow)) {
      got++;
      goto done;
    }
  if (!slow) {
    if (jit_same_as_last(self, x, n)) {
      entry = self->last_entry;
    } else {
      if (!(key = jit_key(x, n))) goto done;
      entry = PyDict_GetItemWithError(self->cache, key); /* borrowed */
      if (!entry && PyErr_Occurred()) goto done;
    }
  }
  if (entry) {
    if (!(current = PyObject_GetAttr(self->core, str_current))) goto done;
    if (!PyTuple_Check(entry) || PyTuple_Size(entry) != 5 || PyTuple_GetItem(entry, 0) != current)
      entry = NULL;
  }
  if (!entry) {
    if (!slow && !key && !(key = jit_key(x, n))) goto done;
    ret = PyObject_CallMethodObjArgs((PyObject *)self, str_miss, slow ? Py_None : key, args, NULL);
    goto done;
  }
  if (entry != self->last_entry) jit_remember(self, x, n, entry);
  Py_INCREF(entry); /* the launch may run Python that calls this configuration again */
  ret = jit_launch(self, entry, args, x, n);
  Py_DECREF(entry);
done:
  jit_args_free(x, got);
  if (x != small) PyMem_Free(x);
  Py_XDECREF(current);
  Py_XDECREF(key);
  return ret;
}

static PyMemberDef jit_members[] = {
    {"_cache", T_OBJECT, offsetof(JitBase, cache), 0,
     "key -> (device, launch, plan, spec, shared)"},
    {"_core", T_OBJECT, offsetof(JitBase, core), 0, "kcc._core (its _current device)"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot jit_slots[] = {
    {Py_tp_doc, "kcc.jit's kernel[grid, block]: call it with the kernel's arguments."},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, jit_dealloc},
    {Py_tp_traverse, jit_traverse},
    {Py_tp_clear, jit_clear},
    {Py_tp_call, jit_call},
    {Py_tp_members, jit_members},
    {0, NULL},
};

static PyType_Spec jit_spec = {
    "kcc._fastlaunch.JitLaunchBase",
    sizeof(JitBase),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    jit_slots,
};

/* ---------------------------------------------------------------- waiting, interruptibly
 * wait(fn, spin_ns, nargs, a0[, a1, a2, a3]): calls a libkcrt function that may wait for the
 * device (kcrt_device/queue/event_synchronize: 1 argument; kcrt_buffer_read/write: 4) so
 * that Ctrl-C interrupts the wait. Python runs signal handlers only in the main thread, between
 * bytecodes, and a driver's wait cannot be interrupted; so the call runs on a worker thread (a
 * pthread: it never touches Python) while the caller, without the GIL, spins for spin_ns on the
 * job's flag (a short wait on a GPU then costs no sleep and wake-up; on a CPU device 0: its kernels
 * need the cores) and then waits in slices of WAIT_SLICE_MS, after each of which it takes the
 * GIL and runs the pending signal handlers. A handler's exception (KeyboardInterrupt) abandons
 * the job: its worker finishes the call whenever the kernel ends, frees the job and exits; the
 * next wait starts another worker. _core._wait_call does the same in Python for the ctypes
 * path. */

#define WAIT_SLICE_MS 50

typedef kcrt_status (*call1_fn)(void *);
/* kcrt_buffer_read's; kcrt_buffer_write's differs only in a const, which the ABI ignores. */
typedef kcrt_status (*call4_fn)(void *, size_t, void *, size_t);
typedef const char *(*last_error_fn)(void);

static last_error_fn the_last_error; /* kcrt_last_error (bind_wait()) */

typedef struct Worker {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a job posted, or its result ready */
  /* The job (one at a time), guarded by mu: */
  int posted, done, abandoned;
  void *fn;
  int nargs;
  uintptr_t a[4];
  kcrt_status st;
  char msg[2048];
  long long spin_ns;  /* how long the caller spins, and the worker after the call */
  atomic_int ready;   /* done, for the caller's spin without the lock */
  atomic_int pending; /* posted, for the worker's spin without the lock */
} Worker;

static Worker *worker; /* the idle worker, or NULL; taken by a wait (under the GIL) */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *worker_main(void *arg) {
  Worker *w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    if (!w->posted && w->spin_ns > 0) { /* the next wait of a loop finds the worker awake */
      long long spin = w->spin_ns;
      pthread_mutex_unlock(&w->mu);
      long long t0 = now_ns();
      while (!atomic_load(&w->pending) && now_ns() - t0 < spin) {
      }
      pthread_mutex_lock(&w->mu);
    }
    while (!w->posted) pthread_cond_wait(&w->cv, &w->mu);
    w->posted = 0;
    atomic_store(&w->pending, 0);
    void *fn = w->fn;
    if (!fn) break; /* retired */
    int nargs = w->nargs;
    uintptr_t a[4] = {w->a[0], w->a[1], w->a[2], w->a[3]};
    pthread_mutex_unlock(&w->mu);
    kcrt_status st = nargs == 1
                         ? ((call1_fn)fn)((void *)a[0])
                         : ((call4_fn)fn)((void *)a[0], (size_t)a[1], (void *)a[2], (size_t)a[3]);
    pthread_mutex_lock(&w->mu);
    w->st = st;
    w->msg[0] = 0;
    if (st && the_last_error) { /* kcrt_last_error() is per thread: read here */
      const char *m = the_last_error();
      snprintf(w->msg, sizeof w->msg, "%s", m ? m : "");
    }
    if (w->abandoned) break; /* the caller left (Ctrl-C): nobody reads this */
    w->done = 1;
    atomic_store(&w->ready, 1);
    pthread_cond_broadcast(&w->cv);
  }
  pthread_mutex_unlock(&w->mu);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
  free(w);
  return NULL;
}

static void forget_worker_in_child(void) {
  worker = NULL; /* the parent's worker thread does not exist in a forked child */
}

static void register_fork(void) {
  pthread_atfork(NULL, NULL, forget_worker_in_child);
}

static Worker *new_worker(void) {
  Worker *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&at, 256 * 1024);
  pthread_t t;
  int e = pthread_create(&t, &at, worker_main, w);
  pthread_attr_destroy(&at);
  if (e) {
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
    return NULL;
  }
  return w;
}

/* An idle worker back (under the GIL): the next wait's, or retired when another wait made
 * one meanwhile (a signal handler's wait). */
static void park(Worker *w) {
  if (!worker) {
    worker = w;
    return;
  }
  pthread_mutex_lock(&w->mu);
  w->fn = NULL;
  w->posted = 1;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static PyObject *fast_wait(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *fnobj;
  int nargs;
  long long spin_ns;
  unsigned long long a[4] = {0, 0, 0, 0};
  if (!PyArg_ParseTuple(args, "OLi|KKKK:wait", &fnobj, &spin_ns, &nargs, &a[0], &a[1], &a[2],
                        &a[3]))
    return NULL;
  void *fn = PyLong_AsVoidPtr(fnobj);
  if (!fn && PyErr_Occurred()) return NULL;
  if (!fn || (nargs != 1 && nargs != 4)) {
    PyErr_SetString(PyExc_ValueError,
                    "wait(fn, spin_ns, nargs, ...): a function of 1 or 4 arguments");
    return NULL;
  }
  pthread_once(&fork_once, register_fork);
  Worker *w = worker; /* under the GIL: one wait takes the idle worker */
  worker = NULL;
  if (!w && !(w = new_worker())) {
    PyErr_SetString(PyExc_RuntimeError, "kcc: cannot start a waiter thread");
    return NULL;
  }
  PyThreadState *ts = PyEval_SaveThread();
  pthread_mutex_lock(&w->mu);
  w->fn = fn;
  w->nargs = nargs;
  for (int i = 0; i < 4; i++) w->a[i] = (uintptr_t)a[i];
  w->done = 0;
  atomic_store(&w->ready, 0);
  w->spin_ns = spin_ns;
  w->posted = 1;
  atomic_store(&w->pending, 1);
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
  /* A short wait: spin on the flag (no sleep, no wake-up to pay). Not on a CPU device
   * (spin_ns 0), whose kernels need the cores. */
  long long t0 = now_ns();
  while (spin_ns > 0 && !atomic_load(&w->ready) && now_ns() - t0 < spin_ns) {
  }
  pthread_mutex_lock(&w->mu);
  while (!w->done) {
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_nsec += WAIT_SLICE_MS * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
      dl.tv_sec++;
      dl.tv_nsec -= 1000000000L;
    }
    int e = pthread_cond_timedwait(&w->cv, &w->mu, &dl);
    if (e == ETIMEDOUT && !w->done) {
      /* A slice is over: the signal handlers run, with the GIL. */
      pthread_mutex_unlock(&w->mu);
      PyEval_RestoreThread(ts);
      if (PyErr_CheckSignals()) {
        pthread_mutex_lock(&w->mu);
        if (w->done) { /* finished meanwhile: keep it, report the signal */
          pthread_mutex_unlock(&w->mu);
          park(w);
        } else {
          w->abandoned = 1; /* its worker frees it when the call returns */
          pthread_mutex_unlock(&w->mu);
        }
        return NULL;
      }
      ts = PyEval_SaveThread();
      pthread_mutex_lock(&w->mu);
    }
  }
  kcrt_status st = w->st;
  char text[sizeof w->msg];
  memcpy(text, w->msg, sizeof text);
  pthread_mutex_unlock(&w->mu);
  PyEval_RestoreThread(ts);
  park(w);
  PyObject *msg = st ? PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace") : NULL;
  if (st && !msg) return NULL;
  PyObject *r = Py_BuildValue("(iO)", (int)st, msg ? msg : Py_None);
  Py_XDECREF(msg);
  return r;
}

static PyObject *fast_bind_wait(PyObject *m, PyObject *addr) {
  (void)m;
  void *p = PyLong_AsVoidPtr(addr);
  if (!p && PyErr_Occurred()) return NULL;
  the_last_error = (last_error_fn)p;
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- the module */

static PyObject *fast_bind(PyObject *m, PyObject *addr) {
  (void)m;
  void *p = PyLong_AsVoidPtr(addr);
  if (!p && PyErr_Occurred()) return NULL;
  the_launch = (launch_fn)p;
  Py_RETURN_NONE;
}

static PyObject *fast_register_array(PyObject *m, PyObject *cls) {
  (void)m;
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "register_array takes a class");
    return NULL;
  }
  Py_INCREF(cls);
  SETREF(device_array_cls, cls);
  Py_RETURN_NONE;
}

static PyObject *fast_register_texobj(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *tex, *surf;
  if (!PyArg_ParseTuple(args, "O!O!:register_texobj", &PyType_Type, &tex, &PyType_Type, &surf))
    return NULL;
  Py_INCREF(tex);
  SETREF(texture_cls, tex);
  Py_INCREF(surf);
  SETREF(surface_cls, surf);
  Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
    {"bind", fast_bind, METH_O, "bind(address): the kcrt_launch that launches call."},
    {"bind_wait", fast_bind_wait, METH_O,
     "bind_wait(address): kcrt_last_error, which wait() reads on its worker thread."},
    {"wait", fast_wait, METH_VARARGS,
     "wait(fn, spin_ns, nargs, a0, a1=0, a2=0, a3=0) -> (status, message or None): calls the "
     "libkcrt function at address fn (1 or 4 arguments) on a worker thread, interruptibly; "
     "the caller spins spin_ns before sleeping, the worker as long for the next call."},
    {"register_array", fast_register_array, METH_O,
     "register_array(cls): the device array class whose instances are passed by handle."},
    {"register_pool", fast_register_pool, METH_VARARGS,
     "register_pool(pool_on, pinned, new_array): _core's list [pools on], set of pinned "
     "buffers and _new_array, which the C memory pool paths read and fall back on."},
    {"new_array", fast_new_array, METH_VARARGS,
     "new_array(pool, device, layout, shape, dtype) -> DeviceArray or None: an array from a "
     "block the pool keeps with a view of the layout's bytes and type tag, else None."},
    {"register_ops", fast_register_ops, METH_O,
     "register_ops({name: op}): the BinaryOp (ReduceOp for negative, absolute, invert) that "
     "ArrayBase's operator slots call, by _array.py's operator names."},
    {"register_texobj", fast_register_texobj, METH_VARARGS,
     "register_texobj(texture_cls, surface_cls): the classes of texture and surface objects, "
     "passed by their handle."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fast_module = {
    PyModuleDef_HEAD_INIT,
    "kcc._fastlaunch",
    "The launch path of kcc in C (docs/python.md).",
    -1,
    fast_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

/* PyModule_AddObject steals the reference on success only (PyModule_AddObjectRef is 3.10's):
 * this one never steals. */
static int add(PyObject *m, const char *name, PyObject *o) {
  Py_INCREF(o);
  if (!PyModule_AddObject(m, name, o)) return 0;
  Py_DECREF(o);
  return -1;
}

PyMODINIT_FUNC PyInit__fastlaunch(void);
PyMODINIT_FUNC PyInit__fastlaunch(void) {
  PyObject *m = PyModule_Create(&fast_module);
  if (!m) return NULL;
  PyObject *array_type = PyType_FromSpec(&array_spec);
  PyObject *launch_type = PyType_FromSpec(&launch_spec);
  PyObject *jit_type = PyType_FromSpec(&jit_spec);
  PyObject *op_type = PyType_FromSpec(&binop_spec);
  PyObject *red_type = PyType_FromSpec(&reduce_spec);
  PyObject *lock_type = PyType_FromSpec(&plock_spec);
  PyObject *mpool_type = PyType_FromSpec(&pool_spec);
  if (!kernel_type) kernel_type = PyType_FromSpec(&kernel_spec); /* kept: Launch() checks */
  if (!str_dtype) {
    str_dtype = PyUnicode_InternFromString("dtype");
    str_shape = PyUnicode_InternFromString("shape");
    str_ndim = PyUnicode_InternFromString("ndim");
    str_current = PyUnicode_InternFromString("_current");
    str_miss = PyUnicode_InternFromString("_miss");
    str_failed = PyUnicode_InternFromString("_failed");
    str_h = PyUnicode_InternFromString("_h");
    str_device = PyUnicode_InternFromString("device");
    str_image = PyUnicode_InternFromString("image");
    str_free = PyUnicode_InternFromString("free");
    int_zero = PyLong_FromLong(0);
  }
  if (!array_type || !launch_type || !jit_type || !op_type || !red_type || !lock_type ||
      !mpool_type || !kernel_type || !str_failed || !str_image || !str_free || !int_zero ||
      add(m, "ArrayBase", array_type) || add(m, "KernelBase", kernel_type) ||
      add(m, "Launch", launch_type) || add(m, "JitLaunchBase", jit_type) ||
      add(m, "BinaryOp", op_type) || add(m, "ReduceOp", red_type) ||
      add(m, "PoolLock", lock_type) || add(m, "PoolBase", mpool_type) ||
      PyModule_AddIntConstant(m, "VERSION", FAST_VERSION)) {
    Py_XDECREF(array_type);
    Py_XDECREF(launch_type);
    Py_XDECREF(jit_type);
    Py_XDECREF(op_type);
    Py_XDECREF(red_type);
    Py_XDECREF(lock_type);
    Py_XDECREF(mpool_type);
    Py_DECREF(m);
    return NULL;
  }
  /* The module holds them. */
  array_type_obj = (PyTypeObject *)array_type;
  launch_type_obj = (PyTypeObject *)launch_type;
  plock_type = (PyTypeObject *)lock_type;
  pool_type = (PyTypeObject *)mpool_type;
  binop_type_obj = (PyTypeObject *)op_type;
  reduce_type_obj = (PyTypeObject *)red_type;
  Py_DECREF(array_type);
  Py_DECREF(launch_type);
  Py_DECREF(jit_type);
  Py_DECREF(op_type);
  Py_DECREF(red_type);
  Py_DECREF(lock_type);
  Py_DECREF(mpool_type);
  return m;
}
