struct Base { int a; };
struct Derived : Base { int b; };
__global__ void k(Derived *d) { d->b = d->a; }
