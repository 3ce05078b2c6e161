// Forms C lacks that every OpenCL compiler takes and kernels are written with: empty
// declarations at program scope (a `;` after a function body, `;;` after a struct: pyFAI's
// `};//end kernel`), which declare nothing, and GNU statement expressions written as statements.
struct pair {
    float a, b;
};;

float sum(struct pair p) {
    return p.a + p.b;
};

kernel void add_pairs(global const struct pair *in, global float *out) {
    size_t i = get_global_id(0);
    out[i] = sum(in[i]);
};
;

// GNU statement expressions written as statements (darktable's switch macros): their value is
// discarded, so each is its block. One whose value is used is refused (tests/bad).
#define SWAP(x, y) ({ float t_ = x; x = y; y = t_; })
kernel void swap_pairs(global struct pair *p, int flip) {
    size_t i = get_global_id(0);
    float a = p[i].a, b = p[i].b;
    if (flip)
        SWAP(a, b);
    (void)({ switch (flip) { case 2: a = -a; break; default: break; } });
    p[i].a = a;
    p[i].b = b;
}
