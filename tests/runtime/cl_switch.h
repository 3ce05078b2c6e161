/* cl_switch.h — the functions of tests/runtime/cl_switch.cl, written once: the kernel calls
 * them on the device and cl_switch.c on the host, and every result must be the same. Switches
 * whose case labels sit inside nested statements (Duff's device, labels in the branches of an
 * if, in while, for and do bodies) or whose default is fallen into or out of when it is not
 * the first label: the Vulkan form lowers them to a search (compiler/spirv/spirv.c). */

// Duff's device: eight steps unrolled in a do-while that the switch enters in its middle.
int duff(int x, int count) {
  int s = 0, k = 0;
  if (count <= 0) return -1;
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0:
    do {
      s += (x ^ k) * 3;
      k++;
    case 7: s += (x ^ k) * 3; k++;
    case 6: s += (x ^ k) * 3; k++;
    case 5: s -= (x ^ k); k++;
    case 4: s += (x ^ k) * 3; k++;
    case 3: s += (x ^ k) * 5; k++;
    case 2: s += (x ^ k) * 3; k++;
    case 1: s += (x ^ k) * 7; k++;
    } while (--n > 0);
  }
  return s * 64 + k;
}

// A default in the middle, fallen into and falling through; a case without break at the end.
int mid_default(int x) {
  int r = 0;
  switch (x & 7) {
  case 1: r += 1;
  default: r += 10;
  case 3: r += 100; break;
  case 5: r += 1000;
  }
  return r;
}

// Labels in both branches of an if, and in a for loop's body entered past its init and
// test; no case matches a negative remainder (nothing runs).
int into_if(int x) {
  int r = x, i = 0;
  switch (x % 5) {
  case 0:
    if (x > 100) {
      r *= 2;
    case 1: r += 7;
    } else {
      r -= 3;
    case 2: r ^= 0x55; break;
    }
    r += 1;
  case 3:
    for (i = 0; i < 3; i++) {
      r += i;
    case 4: r = (r * 3) & 0xffff;
    }
  }
  return r * 8 + i;
}

// Labels in a while body with break and continue of the loop; a first-label default after.
int into_while(int x) {
  int r = 0, n = x & 15;
  switch (x & 3) {
  case 0:
    while (n > 0) {
      r += n;
      if (n == 7) break;
    case 1:
      n -= 2;
      if (n == 4) continue;
    case 2: r ^= n; n--;
    }
    break;
  default: r = -1;
  }
  return r * 100 + n;
}

// Inside a loop: continue and break from within the switch, a label inside an if, a nested
// switch of its own (which fits), a 64-bit controlling expression.
int in_loop(int x) {
  int r = 0;
  for (int k = 0; k < 6; k++) {
    switch (((long)((x + k) & 3)) << 33) {
    case 0:
      r += 1;
      if (k & 1) {
      case 1L << 33: r += 10; continue;
      }
    default:
      switch (k) {
      case 2: r += 5; break;
      case 4: r += 50;
      default: r += 3;
      }
      r += 100;
      break;
    case 3L << 33: r += 1000;
    }
    r *= 2;
  }
  return r;
}

// A label in a do-while inside an if inside the switch, with a default falling out.
int deep(int x) {
  int r = 1, n = (x >> 4) & 3;
  switch (x & 3) {
  default: r = 5;
  case 1:
    if (x & 64) {
      do {
        r = r * 2 + 1;
      case 2: r += 3;
      } while (n-- > 0);
    }
    r -= 1;
    break;
  case 3: r = 99;
  }
  return r * 16 + n;
}
