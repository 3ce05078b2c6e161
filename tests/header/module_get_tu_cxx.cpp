// module_get_tu.c compiled as C++ (see two_headers_cxx.cpp).
#include "module_get_tu.c"
