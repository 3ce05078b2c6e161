/* cl_goto.h — the functions of tests/runtime/cl_goto.cl, written once: the kernel calls them on
 * the device and cl_goto.c on the host, and every result must be the same (goto and labels,
 * C99 §6.8.6.1, which OpenCL C keeps: backward and forward jumps, out of nested loops, past
 * initialized declarations, into a loop's body and out of a switch). */

// Backward goto as a loop (the Cephes style of pyopencl's Bessel functions).
int steps_to_one(unsigned n) {
  int steps = 0;
again:
  if (n <= 1) goto done;
  n = (n & 1) ? 3 * n + 1 : n / 2;
  steps++;
  if (steps < 500) goto again;
done:
  return steps;
}

// Out of two loops at once.
int find_pair(int x) {
  int r, c;
  for (r = 0; r < 16; r++)
    for (c = 0; c < 16; c++)
      if (r * c == x) goto found;
  return -1;
found:
  return r * 16 + c;
}

// Past an initialized declaration (its value is never read after the jump) and into a loop's
// body.
int skip_and_enter(int x) {
  int s = 0, j = 0;
  if (x & 1) goto inside;
  if (x & 2) goto tail;
  int y = x * 3;
  s += y;
  for (j = 0; j < 4; j++) {
    s += j;
  inside:
    s += 10 + x % 7;
  }
tail:
  return s + j;
}

// Out of a switch, and a label that ends a block.
int from_switch(int x) {
  int v = x % 5;
  switch (v) {
  case 0: goto zero;
  case 1:
  case 2: v *= 7; goto out;
  default: break;
  }
  v += 100;
  {
    if (x > 1000) goto end_of_block;
    v -= 1;
  end_of_block:;
  }
  goto out;
zero:
  v = -x;
out:
  return v;
}
