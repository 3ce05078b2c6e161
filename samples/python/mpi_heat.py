"""mpi_heat.py — samples/mpi's heat solver in Python: a 2-D heat-equation (Jacobi) plate split
across MPI ranks (mpi4py), one device per rank, the kernel kcc's (samples/mpi/heat.k).

    mpirun -np R python mpi_heat.py [NX NY STEPS] [--check]

The plate is NX x NY points: the top edge held at 100, the other edges at 0. Rank r owns a band
of rows and keeps it on its device with a halo row above and below; after every step the
boundary rows go to the neighbours (kcc.mpi.Sendrecv). Each rank uses the device its node-local
rank picks (kcc.select_device("local-rank")), or the one $KCC_DEVICE names. Rank 0 gathers the
plate and prints a checksum of its bits (plates up to 4M points), the same for any number of
ranks and the same as the C sample's; --check compares every point with a single-process computation in numpy (the
kernel is built with -ffp-contract=off, so the results are identical).
"""
import os
import sys

import numpy as np
from mpi4py import MPI

import kcc
import kcc.mpi

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "mpi", "heat.k")


def initial(ny, nx):
    """The plate's starting state: the top row at 100, everything else 0."""
    p = np.zeros((ny, nx), np.float32)
    p[0] = 100
    return p


def reference(nx, ny, steps):
    """The single-process computation, in the kernel's order of operations."""
    u = initial(ny, nx)
    v = u.copy()
    for _ in range(steps):
        v[1:-1, 1:-1] = np.float32(0.25) * (((u[:-2, 1:-1] + u[2:, 1:-1]) + u[1:-1, :-2])
                                            + u[1:-1, 2:])
        u, v = v, u
    return u


CHECKSUM_LIMIT = 1 << 22  # points: FNV-1a runs byte by byte in Python (about 1 s per 4 MB)


def checksum(plate):
    """FNV-1a over the bits of every point, as samples/mpi computes it."""
    h = 1469598103934665603
    for b in plate.astype("<f4").tobytes():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def main(argv):
    comm = MPI.COMM_WORLD
    rank, nranks = comm.Get_rank(), comm.Get_size()
    args = [a for a in argv if a != "--check"]
    check = "--check" in argv
    nx, ny, steps = (int(a) for a in (args + ["512", "512", "500"][len(args):])[:3])
    if nx < 3 or ny < 3 or steps < 0 or ny - 2 < nranks:
        if rank == 0:
            print("mpi_heat: need NX, NY >= 3, STEPS >= 0 and NY - 2 >= ranks", file=sys.stderr)
        return 2
    dev = kcc.get_device() if os.environ.get("KCC_DEVICE") else kcc.select_device("local-rank")
    # The kernel, built for the device now rather than inside the first timed step (named
    # heat.k wherever the file is: the compile cache's key holds the name).
    with open(KERNEL) as f:
        jacobi = kcc.compile(f.read(), options=["-ffp-contract=off"], name="heat.k").jacobi

    # Interior rows 1 .. ny - 2 split as evenly as possible; this rank owns global rows
    # [first, first + rows) and holds rows first - 1 .. first + rows.
    interior = ny - 2
    base, extra = divmod(interior, nranks)
    rows = base + (rank < extra)
    first = 1 + rank * base + min(rank, extra)
    band = np.zeros((rows + 2, nx), np.float32)  # global rows first - 1 .. first + rows
    if first == 1:
        band[0] = 100  # the plate's top edge
    u, v = kcc.to_device(band), kcc.to_device(band)
    up = rank - 1 if rank > 0 else MPI.PROC_NULL
    down = rank + 1 if rank < nranks - 1 else MPI.PROC_NULL
    grid, block = ((nx + 31) // 32, (rows + 7) // 8), (32, 8)
    e0, e1 = kcc.Event(), kcc.Event()
    kernel_ms = 0.0
    comm.Barrier()
    t0 = MPI.Wtime()
    for _ in range(steps):
        e0.record()
        jacobi[grid, block](u, v, nx, rows)
        e1.record()
        # Halos: my first row up and the lower neighbour's into my bottom halo, then my last
        # row down and the upper neighbour's into my top halo.
        kcc.mpi.Sendrecv(comm, (v, nx, nx), up, (v, (rows + 1) * nx, nx), down, 0, 0)
        kcc.mpi.Sendrecv(comm, (v, rows * nx, nx), down, (v, 0, nx), up, 1, 1)
        kernel_ms += e0.elapsed_time(e1)
        u, v = v, u
    kcc.synchronize()
    wall = (MPI.Wtime() - t0) * 1000
    mine = u.copy_to_host()[1:rows + 1]

    counts = [(base + (r < extra)) * nx for r in range(nranks)]
    displs = [sum(counts[:r]) for r in range(nranks)]
    plate = initial(ny, nx) if rank == 0 else None
    comm.Gatherv(np.ascontiguousarray(mine),
                 [plate[1:-1], counts, displs, MPI.FLOAT] if rank == 0 else None, root=0)
    max_kernel = comm.reduce(kernel_ms, MPI.MAX, root=0)
    max_wall = comm.reduce(wall, MPI.MAX, root=0)
    lines = comm.gather("rank %d: %s, rows %d..%d, kernel %.3f ms"
                        % (rank, dev.name, first, first + rows - 1, kernel_ms), root=0)
    status = 0
    if rank == 0:
        print("heat: %d x %d plate, %d steps, %d rank%s"
              % (nx, ny, steps, nranks, "" if nranks == 1 else "s"))
        for line in lines:
            print("  " + line)
        # The mean summed in order, as the C sample sums it (numpy's sum is pairwise).
        mean = np.cumsum(plate.astype(np.float64).ravel())[-1] / (nx * ny)
        if plate.size <= CHECKSUM_LIMIT:
            print("checksum %016x, mean temperature %.6f" % (checksum(plate), mean))
        else:
            print("checksum skipped (over %d points), mean temperature %.6f"
                  % (CHECKSUM_LIMIT, mean))
        print("time: kernels %.3f ms (slowest rank), wall %.3f ms" % (max_kernel, max_wall))
        if check:
            ref = reference(nx, ny, steps)
            bad = int(np.count_nonzero(ref.view(np.uint32) != plate.view(np.uint32)))
            print("check: %s" % ("DIFFERS from the single-process computation" if bad else
                                 "identical to the single-process computation"))
            if bad:
                print("  %d of %d points differ" % (bad, nx * ny))
                status = 1
    return comm.bcast(status, root=0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
