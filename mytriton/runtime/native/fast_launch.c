/* The native fast path of one launch plan (see fast_path.py for the same thing in Python).

   A FastLaunch object is called as fast(grid, *args, **kwargs). It binds the arguments to the
   kernel's parameters, checks every guard the plan was made under (argument kinds, dtypes,
   devices, alignment, integer widths, constexpr values, launch options, environment), reads
   the grid, packs the runtime arguments on the stack and calls cuLaunchKernel without the GIL.
   Anything it does not accept goes to `general(grid, args, kwargs)`, the runtime's general
   path, with the call's own arguments: a launch that fails a guard is launched exactly as if
   there were no fast path.

   Built by mytriton/runtime/native_build.py with the machine's C compiler; where that cannot
   be done, the runtime uses the generated Python fast path instead. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_PARAMS 64

typedef int (*launch_fn_t)(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned shared, void *stream,
                           void **params, void **extra);

/* guards (keep in step with native_fast_path.py) */
enum { G_CONST_INT, G_CONST_OTHER, G_NONE, G_INT, G_FLOAT, G_BOOL, G_TORCH, G_CUPY };
/* how a runtime argument is passed (the kernel's ABI) */
enum { P_PTR, P_I32, P_I64, P_F32, P_F64 };

typedef struct {
    int guard;
    PyObject *type;  /* G_TORCH / G_CUPY: the array type */
    PyObject *dtype; /* G_TORCH / G_CUPY: the dtype */
    long long device;
    long long value; /* G_CONST_INT */
    PyObject *key;   /* G_CONST_OTHER: constexpr_key of the value */
    int int_kind;    /* G_INT: 0 int32, 1 int64, 2 uint64 */
    int not_one;     /* G_INT: the value must not be 1 */
    int divisible;   /* G_INT: -1 unchecked, else whether divisible by 16 */
    int aligned;     /* arrays: -1 unchecked, else whether 16-byte aligned */
} Guard;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Py_ssize_t nparams;
    PyObject *names;    /* tuple of interned str */
    PyObject *defaults; /* tuple: a default, or `missing` */
    PyObject *missing;
    Guard guards[MAX_PARAMS];
    Py_ssize_t nruntime;
    int runtime_index[MAX_PARAMS];
    int pass_kind[MAX_PARAMS];
    PyObject *options;  /* dict of the launch options the plan had, or NULL */
    PyObject *env;      /* os.environ's raw dict */
    PyObject *unset;    /* tuple of bytes: variables that must be unset */
    PyObject *set;      /* tuple of (bytes, bytes): variables that must have these values */
    PyObject *normalize; /* grid -> (x, y, z), raising the runtime's errors */
    PyObject *kernel;    /* what a launch returns */
    PyObject *general;   /* general(grid, args, kwargs) */
    PyObject *on_error;  /* on_error(code, x, y, z): True to retry, else raises */
    PyObject *constexpr_key;
    launch_fn_t launch;
    void *function;
    unsigned block[3];
    PyObject *stream_of;  /* stream_of(stream_arg) or stream_of() -> int */
    PyObject *stream_arg; /* NULL: stream_of takes no argument */
    PyObject *get_device; /* NULL: one device, nothing to switch */
    PyObject *set_device;
    int device;
    PyObject *after; /* NULL, or after(stream) once launched (debug kernels wait there) */
    PyObject *globals; /* tuple of (scope, key, value, inner, has_inner): globals compiled in */
} FastLaunch;

static PyObject *s_dtype, *s_get_device, *s_data_ptr, *s_device, *s_id, *s_data, *s_ptr,
    *s_value;

static PyObject *to_general(FastLaunch *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PyObject *grid = nargs > 0 ? args[0] : Py_None;
    PyObject *rest = PyTuple_New(nargs > 0 ? nargs - 1 : 0);
    if (rest == NULL) return NULL;
    for (Py_ssize_t i = 1; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(rest, i - 1, args[i]);
    }
    PyObject *kwargs = PyDict_New();
    if (kwargs == NULL) {
        Py_DECREF(rest);
        return NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) {
            Py_DECREF(rest);
            Py_DECREF(kwargs);
            return NULL;
        }
    }
    PyObject *result = PyObject_CallFunctionObjArgs(self->general, grid, rest, kwargs, NULL);
    Py_DECREF(rest);
    Py_DECREF(kwargs);
    return result;
}

/* 1: equal, 0: not (or an error, cleared: the general path will say what is wrong) */
static int same(PyObject *a, PyObject *b) {
    int eq = PyObject_RichCompareBool(a, b, Py_EQ);
    if (eq < 0) PyErr_Clear();
    return eq == 1;
}

static int environment_unchanged(FastLaunch *self) {
    Py_ssize_t n = PyTuple_GET_SIZE(self->unset);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemWithError(self->env, PyTuple_GET_ITEM(self->unset, i));
        if (v != NULL) return 0;
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
    }
    n = PyTuple_GET_SIZE(self->set);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(self->set, i);
        PyObject *v = PyDict_GetItemWithError(self->env, PyTuple_GET_ITEM(item, 0));
        if (v == NULL) {
            PyErr_Clear();
            return 0;
        }
        if (!same(v, PyTuple_GET_ITEM(item, 1))) return 0;
    }
    return 1;
}

/* Whether every global compiled in is the same object (a constexpr: with the same .value) as
   when the plan was made: a scope is a module's globals dict (key: the name) or a closure cell
   (key: None). Anything else goes to the general path, which compares values and raises. */
static int globals_unchanged(FastLaunch *self) {
    Py_ssize_t n = PyTuple_GET_SIZE(self->globals);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(self->globals, i);
        PyObject *scope = PyTuple_GET_ITEM(item, 0), *key = PyTuple_GET_ITEM(item, 1);
        PyObject *now;
        if (key == Py_None) {
            if (!PyCell_Check(scope)) return 0;
            now = PyCell_GET(scope);
        } else {
            now = PyDict_GetItemWithError(scope, key);
            if (now == NULL) {
                PyErr_Clear();
                return 0;
            }
        }
        if (now != PyTuple_GET_ITEM(item, 2)) return 0;
        if (PyTuple_GET_ITEM(item, 4) == Py_True) {
            PyObject *inner = PyObject_GetAttr(now, s_value);
            if (inner == NULL) {
                PyErr_Clear();
                return 0;
            }
            Py_DECREF(inner); /* compared by identity only */
            if (inner != PyTuple_GET_ITEM(item, 3)) return 0;
        }
    }
    return 1;
}

/* an int attribute chain read as unsigned 64 bits; 0 and an exception cleared on failure */
static int read_u64(PyObject *obj, unsigned long long *out) {
    if (obj == NULL) {
        PyErr_Clear();
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    Py_DECREF(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

static int read_ll(PyObject *obj, long long *out) {
    if (obj == NULL) {
        PyErr_Clear();
        return 0;
    }
    long long v = PyLong_AsLongLong(obj);
    Py_DECREF(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

static PyObject *getattr2(PyObject *obj, PyObject *a, PyObject *b) {
    PyObject *first = PyObject_GetAttr(obj, a);
    if (first == NULL) return NULL;
    PyObject *second = PyObject_GetAttr(first, b);
    Py_DECREF(first);
    return second;
}

typedef union {
    int32_t i32;
    uint64_t u64;
    float f32;
    double f64;
} Slot;

/* the guard of one argument; fills its value. 1: accepted, 0: not (general path) */
static int check(FastLaunch *self, Guard *g, PyObject *v, Slot *out) {
    int overflow = 0;
    long long x;
    unsigned long long p;
    switch (g->guard) {
    case G_CONST_INT:
        if (!PyLong_CheckExact(v)) return 0;
        x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return !overflow && x == g->value;
    case G_CONST_OTHER: {
        PyObject *key = PyObject_CallOneArg(self->constexpr_key, v);
        if (key == NULL) {
            PyErr_Clear();
            return 0;
        }
        int ok = same(key, g->key);
        Py_DECREF(key);
        return ok;
    }
    case G_NONE:
        return v == Py_None;
    case G_INT:
        if (!PyLong_CheckExact(v)) return 0;
        x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (g->int_kind == 2) {
            if (overflow != 1) return 0; /* uint64: above int64's range */
            p = PyLong_AsUnsignedLongLong(v);
            if (p == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            out->u64 = p;
            return g->divisible < 0 || ((p % 16 == 0) == g->divisible);
        }
        if (overflow) return 0;
        if ((x >= INT32_MIN && x <= INT32_MAX) != (g->int_kind == 0)) return 0;
        if (g->not_one && x == 1) return 0;
        if (g->divisible >= 0 && ((x % 16 == 0) != g->divisible)) return 0;
        if (g->int_kind == 0)
            out->i32 = (int32_t)x;
        else
            out->u64 = (uint64_t)x;
        return 1;
    case G_FLOAT:
        if (!PyFloat_CheckExact(v)) return 0;
        out->f64 = PyFloat_AS_DOUBLE(v);
        return 1;
    case G_BOOL:
        if (!PyBool_Check(v)) return 0;
        out->i32 = v == Py_True;
        return 1;
    case G_TORCH: {
        if ((PyObject *)Py_TYPE(v) != g->type) return 0;
        PyObject *dtype = PyObject_GetAttr(v, s_dtype);
        if (dtype == NULL) {
            PyErr_Clear();
            return 0;
        }
        Py_DECREF(dtype); /* compared by identity: torch's dtypes are singletons */
        if (dtype != g->dtype) return 0;
        if (!read_ll(PyObject_CallMethodNoArgs(v, s_get_device), &x) || x != g->device)
            return 0;
        if (!read_u64(PyObject_CallMethodNoArgs(v, s_data_ptr), &p)) return 0;
        break;
    }
    case G_CUPY: {
        if ((PyObject *)Py_TYPE(v) != g->type) return 0;
        PyObject *dtype = PyObject_GetAttr(v, s_dtype);
        if (dtype == NULL) {
            PyErr_Clear();
            return 0;
        }
        int ok = same(dtype, g->dtype);
        Py_DECREF(dtype);
        if (!ok) return 0;
        if (!read_ll(getattr2(v, s_device, s_id), &x) || x != g->device) return 0;
        if (!read_u64(getattr2(v, s_data, s_ptr), &p)) return 0;
        break;
    }
    default:
        return 0;
    }
    /* arrays */
    if (g->aligned >= 0 && ((p % 16 == 0) != g->aligned)) return 0;
    out->u64 = p;
    return 1;
}

static int grid_dims(FastLaunch *self, PyObject *grid, PyObject **vals, long long dims[3]) {
    /* a tuple of 1 to 3 ints in range: read here; anything else through `normalize` */
    static const long long limits[3] = {2147483647LL, 65535LL, 65535LL};
    if (PyTuple_CheckExact(grid)) {
        Py_ssize_t n = PyTuple_GET_SIZE(grid);
        if (n >= 1 && n <= 3) {
            int ok = 1;
            for (int i = 0; i < 3; i++) {
                if (i >= n) {
                    dims[i] = 1;
                    continue;
                }
                PyObject *d = PyTuple_GET_ITEM(grid, i);
                if (!PyLong_CheckExact(d)) {
                    ok = 0;
                    break;
                }
                int overflow = 0;
                dims[i] = PyLong_AsLongLongAndOverflow(d, &overflow);
                if (overflow || dims[i] < 0 || dims[i] > limits[i]) {
                    ok = 0;
                    break;
                }
            }
            if (ok) return 1;
        }
    }
    PyObject *g = grid;
    Py_INCREF(g);
    if (!PyTuple_Check(grid) && PyCallable_Check(grid)) {
        PyObject *meta = PyDict_New();
        if (meta == NULL) {
            Py_DECREF(g);
            return 0;
        }
        for (Py_ssize_t j = 0; j < self->nparams; j++) {
            if (PyDict_SetItem(meta, PyTuple_GET_ITEM(self->names, j), vals[j]) < 0) {
                Py_DECREF(meta);
                Py_DECREF(g);
                return 0;
            }
        }
        Py_DECREF(g);
        g = PyObject_CallOneArg(grid, meta);
        Py_DECREF(meta);
        if (g == NULL) return 0;
    }
    PyObject *xyz = PyObject_CallOneArg(self->normalize, g);
    Py_DECREF(g);
    if (xyz == NULL) return 0;
    for (int i = 0; i < 3; i++) dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(xyz, i));
    Py_DECREF(xyz);
    return !PyErr_Occurred();
}

/* Make the plan's device current where the process has several (what was current goes in
   *previous); 1 on success. */
static int switch_device(FastLaunch *self, int *previous) {
    if (self->get_device == NULL) return 1;
    PyObject *current = PyObject_CallNoArgs(self->get_device);
    if (current == NULL) return 0;
    *previous = (int)PyLong_AsLong(current);
    Py_DECREF(current);
    if (PyErr_Occurred()) return 0;
    if (*previous == self->device) return 1;
    PyObject *done = PyObject_CallFunction(self->set_device, "i", self->device);
    Py_XDECREF(done);
    return done != NULL;
}

/* Make `previous` current again, keeping an exception already raised; 1 on success. */
static int restore_device(FastLaunch *self, int previous) {
    if (self->get_device == NULL || previous == self->device) return 1;
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyObject *done = PyObject_CallFunction(self->set_device, "i", previous);
    Py_XDECREF(done);
    if (type != NULL) {
        if (done == NULL) PyErr_Clear();
        PyErr_Restore(type, value, traceback);
        return 0;
    }
    return done != NULL;
}

/* The launch on the current stream (retried once where on_error asks), then `after(stream)`
   where the plan waits for its kernel; 1 on success. */
static int launch(FastLaunch *self, long long dims[3], void **params) {
    PyObject *s = self->stream_arg ? PyObject_CallOneArg(self->stream_of, self->stream_arg)
                                   : PyObject_CallNoArgs(self->stream_of);
    if (s == NULL) return 0;
    void *stream = PyLong_AsVoidPtr(s);
    Py_DECREF(s);
    if (stream == NULL && PyErr_Occurred()) return 0;
    for (int attempt = 0;; attempt++) {
        int err;
        Py_BEGIN_ALLOW_THREADS
        err = self->launch(self->function, (unsigned)dims[0], (unsigned)dims[1], (unsigned)dims[2],
                           self->block[0], self->block[1], self->block[2], 0, stream, params,
                           NULL);
        Py_END_ALLOW_THREADS
        if (err == 0) break;
        PyObject *retry = PyObject_CallFunction(self->on_error, "iLLLi", err, dims[0], dims[1],
                                                dims[2], attempt);
        if (retry == NULL) return 0;
        int again = PyObject_IsTrue(retry);
        Py_DECREF(retry);
        if (again != 1) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "kernel launch failed");
            return 0;
        }
    }
    if (self->after != NULL) {
        PyObject *done = PyObject_CallFunction(self->after, "K", (unsigned long long)(uintptr_t)stream);
        if (done == NULL) return 0;
        Py_DECREF(done);
    }
    return 1;
}

static PyObject *fast_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                           PyObject *kwnames) {
    FastLaunch *self = (FastLaunch *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t np = self->nparams;
    PyObject *vals[MAX_PARAMS];
    if (nargs < 1 || nargs - 1 > np) return to_general(self, args, nargs, kwnames);
    PyObject *grid = args[0];
    for (Py_ssize_t j = 0; j < np; j++) vals[j] = j < nargs - 1 ? args[j + 1] : NULL;
    /* keywords: parameters (found by identity of the interned name first) or options */
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0, noptions = 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *value = args[nargs + k];
        Py_ssize_t j = 0;
        while (j < np && PyTuple_GET_ITEM(self->names, j) != name) j++;
        if (j == np) {
            j = 0;
            while (j < np && PyUnicode_Compare(PyTuple_GET_ITEM(self->names, j), name) != 0) j++;
            if (PyErr_Occurred()) PyErr_Clear();
        }
        if (j < np) {
            if (vals[j] != NULL) return to_general(self, args, nargs, kwnames);
            vals[j] = value;
            continue;
        }
        PyObject *expected = self->options ? PyDict_GetItemWithError(self->options, name) : NULL;
        if (expected == NULL || Py_TYPE(expected) != Py_TYPE(value) || !same(expected, value)) {
            PyErr_Clear();
            return to_general(self, args, nargs, kwnames);
        }
        noptions++;
    }
    if (noptions != (self->options ? PyDict_GET_SIZE(self->options) : 0))
        return to_general(self, args, nargs, kwnames);
    for (Py_ssize_t j = 0; j < np; j++) {
        if (vals[j] == NULL) {
            vals[j] = PyTuple_GET_ITEM(self->defaults, j);
            if (vals[j] == self->missing) return to_general(self, args, nargs, kwnames);
        }
    }
    if (!environment_unchanged(self) || !globals_unchanged(self))
        return to_general(self, args, nargs, kwnames);
    Slot slots[MAX_PARAMS];
    for (Py_ssize_t j = 0; j < np; j++) {
        if (!check(self, &self->guards[j], vals[j], &slots[j]))
            return to_general(self, args, nargs, kwnames);
    }
    long long dims[3];
    if (!grid_dims(self, grid, vals, dims)) return NULL;
    if (dims[0] && dims[1] && dims[2]) {
        Slot packed[MAX_PARAMS];
        void *params[MAX_PARAMS];
        for (Py_ssize_t r = 0; r < self->nruntime; r++) {
            Slot *s = &slots[self->runtime_index[r]];
            switch (self->pass_kind[r]) {
            case P_F32:
                packed[r].f32 = (float)s->f64;
                break;
            case P_I32:
                packed[r].i32 = s->i32;
                break;
            case P_F64:
                packed[r].f64 = s->f64;
                break;
            default: /* P_PTR, P_I64 */
                packed[r].u64 = s->u64;
            }
            params[r] = &packed[r];
        }
        int previous = 0;
        if (!switch_device(self, &previous)) return NULL;
        int ok = launch(self, dims, params);
        if (!restore_device(self, previous)) ok = 0;
        if (!ok) return NULL;
    }
    Py_INCREF(self->kernel);
    return self->kernel;
}

static int fast_traverse(FastLaunch *self, visitproc visit, void *arg) {
    Py_VISIT(self->names);
    Py_VISIT(self->defaults);
    Py_VISIT(self->missing);
    Py_VISIT(self->options);
    Py_VISIT(self->env);
    Py_VISIT(self->unset);
    Py_VISIT(self->set);
    Py_VISIT(self->normalize);
    Py_VISIT(self->kernel);
    Py_VISIT(self->general);
    Py_VISIT(self->on_error);
    Py_VISIT(self->constexpr_key);
    Py_VISIT(self->stream_of);
    Py_VISIT(self->stream_arg);
    Py_VISIT(self->get_device);
    Py_VISIT(self->set_device);
    Py_VISIT(self->after);
    Py_VISIT(self->globals);
    for (Py_ssize_t j = 0; j < self->nparams; j++) {
        Py_VISIT(self->guards[j].type);
        Py_VISIT(self->guards[j].dtype);
        Py_VISIT(self->guards[j].key);
    }
    return 0;
}

static int fast_clear(FastLaunch *self) {
    Py_CLEAR(self->names);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->missing);
    Py_CLEAR(self->options);
    Py_CLEAR(self->env);
    Py_CLEAR(self->unset);
    Py_CLEAR(self->set);
    Py_CLEAR(self->normalize);
    Py_CLEAR(self->kernel);
    Py_CLEAR(self->general);
    Py_CLEAR(self->on_error);
    Py_CLEAR(self->constexpr_key);
    Py_CLEAR(self->stream_of);
    Py_CLEAR(self->stream_arg);
    Py_CLEAR(self->get_device);
    Py_CLEAR(self->set_device);
    Py_CLEAR(self->after);
    Py_CLEAR(self->globals);
    for (Py_ssize_t j = 0; j < self->nparams; j++) {
        Py_CLEAR(self->guards[j].type);
        Py_CLEAR(self->guards[j].dtype);
        Py_CLEAR(self->guards[j].key);
    }
    return 0;
}

static void fast_dealloc(FastLaunch *self) {
    PyObject_GC_UnTrack(self);
    fast_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *fast_vectorcall_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    return PyVectorcall_Call(self, args, kwargs);
}

static PyTypeObject FastLaunchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "mytriton_fast_launch.FastLaunch",
    .tp_basicsize = sizeof(FastLaunch),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(FastLaunch, vectorcall),
    .tp_call = fast_vectorcall_call,
    .tp_traverse = (traverseproc)fast_traverse,
    .tp_clear = (inquiry)fast_clear,
    .tp_dealloc = (destructor)fast_dealloc,
    .tp_doc = "The native fast path of one launch plan: fast(grid, *args, **kwargs).",
};

static PyObject *hold(PyObject *o) {
    if (o == Py_None) return NULL;
    Py_INCREF(o);
    return o;
}

/* make(names, defaults, missing, guards, runtime_index, pass_kind, options, env, unset, set,
        normalize, kernel, general, on_error, constexpr_key, launch_address, function,
        block, stream_of, stream_arg, get_device, set_device, device, after, globals)
   -- see native_fast_path.py */
static PyObject *make(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *names, *defaults, *missing, *guards, *runtime_index, *pass_kind, *options, *env,
        *unset, *set, *normalize, *kernel, *general, *on_error, *constexpr_key, *stream_of,
        *stream_arg, *get_device, *set_device, *after, *globals;
    int device;
    unsigned long long launch_address, function;
    unsigned bx, by, bz;
    if (!PyArg_ParseTuple(args, "O!O!OO!O!O!OO!O!O!OOOOOKK(III)OOOOiOO!", &PyTuple_Type, &names,
                          &PyTuple_Type, &defaults, &missing, &PyTuple_Type, &guards,
                          &PyTuple_Type, &runtime_index, &PyTuple_Type, &pass_kind, &options,
                          &PyDict_Type, &env, &PyTuple_Type, &unset, &PyTuple_Type, &set,
                          &normalize, &kernel, &general, &on_error, &constexpr_key,
                          &launch_address, &function, &bx, &by, &bz, &stream_of, &stream_arg,
                          &get_device, &set_device, &device, &after, &PyTuple_Type, &globals))
        return NULL;
    Py_ssize_t np = PyTuple_GET_SIZE(names), nr = PyTuple_GET_SIZE(runtime_index);
    int globals_ok = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(globals); i++) {
        PyObject *item = PyTuple_GET_ITEM(globals, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 5 ||
            (PyTuple_GET_ITEM(item, 1) == Py_None ? !PyCell_Check(PyTuple_GET_ITEM(item, 0))
                                                  : !PyDict_Check(PyTuple_GET_ITEM(item, 0))))
            globals_ok = 0;
    }
    if (np > MAX_PARAMS || PyTuple_GET_SIZE(defaults) != np || PyTuple_GET_SIZE(guards) != np ||
        PyTuple_GET_SIZE(pass_kind) != nr || nr > np || !globals_ok) {
        PyErr_SetString(PyExc_ValueError, "inconsistent fast path specification");
        return NULL;
    }
    FastLaunch *self = PyObject_GC_New(FastLaunch, &FastLaunchType);
    if (self == NULL) return NULL;
    self->vectorcall = fast_call;
    self->nparams = 0; /* guards are filled below; a failure must not clear unset ones */
    self->names = hold(names);
    self->defaults = hold(defaults);
    self->missing = hold(missing);
    self->options = hold(options);
    self->env = hold(env);
    self->unset = hold(unset);
    self->set = hold(set);
    self->normalize = hold(normalize);
    self->kernel = hold(kernel);
    self->general = hold(general);
    self->on_error = hold(on_error);
    self->constexpr_key = hold(constexpr_key);
    self->stream_of = hold(stream_of);
    self->stream_arg = hold(stream_arg);
    self->get_device = hold(get_device);
    self->set_device = hold(set_device);
    self->device = device;
    self->after = hold(after);
    self->globals = hold(globals);
    self->launch = (launch_fn_t)(uintptr_t)launch_address;
    self->function = (void *)(uintptr_t)function;
    self->block[0] = bx;
    self->block[1] = by;
    self->block[2] = bz;
    self->nruntime = nr;
    for (Py_ssize_t j = 0; j < np; j++) {
        Guard *g = &self->guards[j];
        PyObject *type, *dtype, *key;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(guards, j), "iOOLLOiiii", &g->guard, &type,
                              &dtype, &g->device, &g->value, &key, &g->int_kind, &g->not_one,
                              &g->divisible, &g->aligned)) {
            Py_DECREF(self);
            return NULL;
        }
        g->type = hold(type);
        g->dtype = hold(dtype);
        g->key = hold(key);
        self->nparams = j + 1;
    }
    for (Py_ssize_t r = 0; r < nr; r++) {
        self->runtime_index[r] = (int)PyLong_AsLong(PyTuple_GET_ITEM(runtime_index, r));
        self->pass_kind[r] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pass_kind, r));
        if (self->runtime_index[r] < 0 || self->runtime_index[r] >= np) {
            PyErr_SetString(PyExc_ValueError, "runtime index out of range");
        }
    }
    if (PyErr_Occurred()) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* A launch that does nothing: with its address in place of cuLaunchKernel's, a benchmark
   measures what the fast path itself costs (benchmarks/launch_floor.py). */
static int noop_launch(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared;
    (void)stream, (void)params, (void)extra;
    return 0;
}

static PyMethodDef methods[] = {
    {"make", make, METH_VARARGS, "Make the native fast path of one launch plan."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mytriton_fast_launch",
    .m_doc = "mytriton's native launch fast path.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit_mytriton_fast_launch(void) {
    if (PyType_Ready(&FastLaunchType) < 0) return NULL;
    s_dtype = PyUnicode_InternFromString("dtype");
    s_get_device = PyUnicode_InternFromString("get_device");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_device = PyUnicode_InternFromString("device");
    s_id = PyUnicode_InternFromString("id");
    s_data = PyUnicode_InternFromString("data");
    s_ptr = PyUnicode_InternFromString("ptr");
    s_value = PyUnicode_InternFromString("value");
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) return NULL;
    if (PyModule_AddObject(m, "NOOP_LAUNCH", PyLong_FromVoidPtr((void *)noop_launch)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&FastLaunchType);
    if (PyModule_AddObject(m, "FastLaunch", (PyObject *)&FastLaunchType) < 0) {
        Py_DECREF(&FastLaunchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
