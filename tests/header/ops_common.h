// ops_common.h — included by both test kernel files (ops_a.k, ops_b.k): the struct they
// share, so that both generated headers declare it and the guards must let them meet.
#ifndef OPS_COMMON_H
#define OPS_COMMON_H

struct Pair {
  float x, y;
};

#endif
