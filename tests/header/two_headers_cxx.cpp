// two_headers.c compiled as C++: the generated headers must be valid C++ too.
#include "two_headers.c"
