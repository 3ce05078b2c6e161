/* mpi/heat — a 2-D heat-equation (Jacobi) solver split across MPI ranks, one device per rank.
 *
 *   mpirun -np R heat [NX NY STEPS] [--check]
 *
 * The plate is NX x NY points: the top edge held at 100, the other edges at 0. Rank r owns a
 * band of rows and keeps it on its device with one halo row above and below; after every
 * step the boundary rows go to the neighbours through the host (MPI_Sendrecv). Each rank
 * drives the device its node-local rank picks (the i-th GPU of the node, CUDA's first), or
 * what KCC_DEVICE names. At the end rank 0 gathers the plate and prints a checksum of its
 * bits, which is the same for any number of ranks; --check also compares every point with a
 * single-process computation on the host (the kernel is built with -ffp-contract=off, so the
 * results are identical). Times: the slowest rank's kernel time and the wall time. */
#define _POSIX_C_SOURCE 200809L /* readlink */
#include "kcrt.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, nranks;

static void die(const char *what, kcrt_status st) {
  fprintf(stderr, "heat: rank %d: %s: %s: %s\n", rank, what, kcrt_status_name(st),
          kcrt_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define CK(call)                                                                                   \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_) die(#call, st_);                                                                      \
  } while (0)

/* The device for this rank: KCC_DEVICE if set, else GPU number (local rank mod GPUs) of the
 * node, CUDA GPUs first, else the default device. */
static kcrt_device *pick_device(int local_rank) {
  kcrt_device *dev = NULL;
  const char *env = getenv("KCC_DEVICE");
  if (!env || !*env) {
    int n = 0, gpus[64], ngpu = 0;
    CK(kcrt_device_count(&n));
    for (int pass = 0; pass < 2 && !ngpu; pass++)
      for (int i = 0; i < n && ngpu < 64; i++) {
        kcrt_device_info info;
        CK(kcrt_device_info_get(i, &info));
        if (info.type == KCRT_DEVICE_GPU &&
            info.backend == (pass ? KCRT_BACKEND_OPENCL : KCRT_BACKEND_CUDA))
          gpus[ngpu++] = i;
      }
    if (ngpu) CK(kcrt_device_open(gpus[local_rank % ngpu], &dev));
  }
  if (!dev) CK(kcrt_device_open_default(&dev));
  return dev;
}

/* The bundle beside the executable (heat.kcb, built by kcc), or $HEAT_KCB. */
static kcrt_module *load_module(kcrt_device *dev) {
  char path[4096];
  const char *env = getenv("HEAT_KCB");
  if (env && *env) {
    snprintf(path, sizeof path, "%s", env);
  } else {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 16);
    if (n < 0) n = 0;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    strcpy(slash ? slash + 1 : path, "heat.kcb");
  }
  kcrt_module *mod;
  CK(kcrt_module_load_file(dev, path, &mod));
  return mod;
}

/* The plate's starting state: the top row (y == 0) at 100, everything else 0. */
static float initial(int y) {
  return y == 0 ? 100.0f : 0.0f;
}

/* The single-process computation: ny rows of nx, steps Jacobi steps. */
static float *reference(int nx, int ny, int steps) {
  size_t n = (size_t)nx * ny;
  float *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) u[(size_t)y * nx + x] = v[(size_t)y * nx + x] = initial(y);
  for (int s = 0; s < steps; s++) {
    for (int y = 1; y < ny - 1; y++)
      for (int x = 1; x < nx - 1; x++) {
        size_t i = (size_t)y * nx + x;
        v[i] = 0.25f * (u[i - nx] + u[i + nx] + u[i - 1] + u[i + 1]);
      }
    float *t = u;
    u = v;
    v = t;
  }
  free(v);
  return u;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int nx = 512, ny = 512, steps = 500, check = 0, pos = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--check")) {
      check = 1;
    } else {
      int v = atoi(argv[i]);
      if (pos == 0) nx = v;
      if (pos == 1) ny = v;
      if (pos == 2) steps = v;
      pos++;
    }
  }
  if (nx < 3 || ny < 3 || steps < 0 || ny - 2 < nranks) {
    if (!rank) fprintf(stderr, "heat: need NX, NY >= 3, STEPS >= 0 and NY - 2 >= ranks\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm node;
  int local_rank;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank);
  kcrt_device *dev = pick_device(local_rank);
  kcrt_device_info info;
  CK(kcrt_device_get_info(dev, &info));
  kcrt_kernel *k;
  CK(kcrt_kernel_get(load_module(dev), "jacobi", &k));

  /* Interior rows 1 .. ny - 2 split as evenly as possible; this rank owns global rows
   * [first, first + rows) and holds rows first - 1 .. first + rows. */
  int interior = ny - 2, base = interior / nranks, extra = interior % nranks;
  int rows = base + (rank < extra), first = 1 + rank * base + (rank < extra ? rank : extra);
  size_t band = (size_t)(rows + 2) * nx;
  float *h = malloc(band * sizeof *h);
  for (int r = 0; r < rows + 2; r++)
    for (int x = 0; x < nx; x++) h[(size_t)r * nx + x] = initial(first - 1 + r);
  kcrt_buffer *u, *v;
  CK(kcrt_buffer_alloc(dev, band * sizeof(float), &u));
  CK(kcrt_buffer_alloc(dev, band * sizeof(float), &v));
  CK(kcrt_buffer_write(u, 0, h, band * sizeof(float)));
  CK(kcrt_buffer_write(v, 0, h, band * sizeof(float)));
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t row_bytes = (size_t)nx * sizeof(float);
  float *send = malloc(2 * row_bytes), *recv = malloc(2 * row_bytes);
  kcrt_event *e0, *e1;
  CK(kcrt_event_create(dev, &e0));
  CK(kcrt_event_create(dev, &e1));
  kcrt_dim3 grid = {(unsigned)((nx + 31) / 32), (unsigned)((rows + 7) / 8), 1}, block = {32, 8, 1};
  double kernel_ms = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int s = 0; s < steps; s++) {
    kcrt_arg args[] = {KCRT_ARG_BUFFER(u), KCRT_ARG_BUFFER(v), KCRT_ARG_VALUE(nx),
                       KCRT_ARG_VALUE(rows)};
    CK(kcrt_event_record(e0, NULL));
    CK(kcrt_launch(k, NULL, grid, block, 0, args, 4));
    CK(kcrt_event_record(e1, NULL));
    /* Halos: my first and last rows out, the neighbours' into rows 0 and rows + 1. */
    CK(kcrt_buffer_read(v, row_bytes, send, row_bytes));
    CK(kcrt_buffer_read(v, (size_t)rows * row_bytes, send + nx, row_bytes));
    double ms;
    CK(kcrt_event_elapsed_ms(e0, e1, &ms));
    kernel_ms += ms;
    MPI_Sendrecv(send, nx, MPI_FLOAT, up, 0, recv + nx, nx, MPI_FLOAT, down, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(send + nx, nx, MPI_FLOAT, down, 1, recv, nx, MPI_FLOAT, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (up != MPI_PROC_NULL) CK(kcrt_buffer_write(v, 0, recv, row_bytes));
    if (down != MPI_PROC_NULL)
      CK(kcrt_buffer_write(v, (size_t)(rows + 1) * row_bytes, recv + nx, row_bytes));
    kcrt_buffer *t = u;
    u = v;
    v = t;
  }
  CK(kcrt_device_synchronize(dev));
  double wall = (MPI_Wtime() - t0) * 1000;
  CK(kcrt_buffer_read(u, row_bytes, h, (size_t)rows * row_bytes));

  /* Rank 0 gathers the interior rows, adds the fixed top and bottom rows, and reports. */
  int *counts = malloc(nranks * sizeof *counts), *displs = malloc(nranks * sizeof *displs);
  for (int r = 0, off = 0; r < nranks; r++) {
    counts[r] = (base + (r < extra)) * nx;
    displs[r] = off;
    off += counts[r];
  }
  float *plate = rank ? NULL : malloc((size_t)nx * ny * sizeof *plate);
  MPI_Gatherv(h, rows * nx, MPI_FLOAT, plate ? plate + nx : NULL, counts, displs, MPI_FLOAT, 0,
              MPI_COMM_WORLD);
  double max_kernel = 0, max_wall = 0;
  MPI_Reduce(&kernel_ms, &max_kernel, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&wall, &max_wall, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  char line[512];
  snprintf(line, sizeof line, "rank %d: %s, rows %d..%d, kernel %.3f ms", rank, info.name, first,
           first + rows - 1, kernel_ms);
  int status = 0;
  if (rank) {
    MPI_Send(line, (int)strlen(line) + 1, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
  } else {
    printf("heat: %d x %d plate, %d steps, %d rank%s\n", nx, ny, steps, nranks,
           nranks == 1 ? "" : "s");
    printf("  %s\n", line);
    for (int r = 1; r < nranks; r++) {
      MPI_Recv(line, sizeof line, MPI_CHAR, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("  %s\n", line);
    }
    for (int x = 0; x < nx; x++) {
      plate[x] = initial(0);
      plate[(size_t)(ny - 1) * nx + x] = initial(ny - 1);
    }
    /* FNV-1a over the bits of every point: equal for any split of the same plate. */
    uint64_t hash = 1469598103934665603ull;
    double sum = 0;
    for (size_t i = 0; i < (size_t)nx * ny; i++) {
      uint32_t b;
      memcpy(&b, &plate[i], 4);
      for (int j = 0; j < 4; j++) hash = (hash ^ ((b >> (8 * j)) & 0xff)) * 1099511628211ull;
      sum += plate[i];
    }
    printf("checksum %016llx, mean temperature %.6f\n", (unsigned long long)hash,
           sum / ((double)nx * ny));
    printf("time: kernels %.3f ms (slowest rank), wall %.3f ms\n", max_kernel, max_wall);
    if (check) {
      float *ref = reference(nx, ny, steps);
      size_t bad = 0;
      for (size_t i = 0; i < (size_t)nx * ny; i++) bad += memcmp(&ref[i], &plate[i], 4) != 0;
      printf("check: %s\n", bad ? "DIFFERS from the single-process computation"
                                : "identical to the single-process computation");
      if (bad) {
        printf("  %zu of %zu points differ\n", bad, (size_t)nx * ny);
        status = 1;
      }
      free(ref);
    }
    free(plate);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(h), free(send), free(recv), free(counts), free(displs);
  kcrt_device_close(dev);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return status;
}
