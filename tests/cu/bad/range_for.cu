// Range-based for over a container whose elements kcc cannot see (libclang shows no begin
// and end calls): refused, naming what is supported.
struct Bag {
  int v[4];
  __device__ const int *begin() const { return v; }
  __device__ const int *end() const { return v + 4; }
};
__global__ void k(int *p) {
  Bag b = {{1, 2, 3, 4}};
  int s = 0;
  for (int x : b) s += x;
  p[0] = s;
}
