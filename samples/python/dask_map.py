"""dask_map.py — a kcc kernel mapped over the chunks of a Dask array, one Dask worker per device.

    python dask_map.py [N CHUNKS ITERS] [--workers W] [--seed S] [--check]

A local Dask cluster (a SpecCluster bound to 127.0.0.1) gets W worker processes (default: one
per device: the GPUs, else every device); worker i is given device i modulo those through
KCC_DEVICE in its environment, as dask-cuda gives its workers CUDA_VISIBLE_DEVICES. The kernel
`hash_rounds` (ITERS rounds of a multiply-xorshift hash of i ^ SEED per element, a fresh random
SEED each run: compute-bound) is mapped over the chunks of an N-element uint32 Dask array
(map_blocks): each chunk is a task that copies its block to the worker's device, runs the
kernel and copies it back; the timed result is the sum of the hashes, so only the chunks' sums
come back to the client. Every worker compiles the kernel before the clock starts (kcc's disk
cache shares the build between them), and --check compares every element, and the sum, with
the same hash computed by numpy.
"""
import argparse
import sys
import time

import numpy as np

import kcc

KERNEL = r"""
kernel void hash_rounds(unsigned *x, long n, unsigned seed, int iters) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = x[i] ^ seed;
    for (int k = 0; k < iters; k++) {
        v = v * 1664525u + 1013904223u;
        v ^= v >> 13;
    }
    x[i] = v;
}
"""


def hash_numpy(x, seed, iters):
    v = x.astype(np.uint32) ^ np.uint32(seed)
    for _ in range(iters):
        v = v * np.uint32(1664525) + np.uint32(1013904223)
        v ^= v >> np.uint32(13)
    return v


_kernel = None


def hash_kernel():
    """The kernel on this worker's device, compiled (or taken from the cache) once."""
    global _kernel
    if _kernel is None:
        _kernel = kcc.compile(KERNEL).hash_rounds
    return _kernel


def hash_block(block, seed, iters):
    """One task: a chunk through the kernel on this worker's device."""
    d = kcc.to_device(np.ascontiguousarray(block, dtype=np.uint32))
    n = d.size
    hash_kernel()[(n + 255) // 256, 256](d, n, seed, iters)
    return d.copy_to_host()


def worker_ready():
    """Run on every worker before the clock starts: its device, and the kernel built."""
    hash_kernel()
    d = kcc.get_device()
    return "%s (%s)" % (d.name, d.backend)


def worker_devices():
    """The devices workers take in turn: the GPUs of one back end (CUDA's when it has any; not
    NVIDIA's OpenCL view of the same GPUs), else every device, as "local-rank" counts them."""
    devs = kcc.devices()
    for pick in (lambda d: d.backend == "cuda", lambda d: d.type == "gpu", lambda d: True):
        chosen = [d.index for d in devs if pick(d)]
        if chosen:
            return chosen
    return []


def cluster(workers, devs):
    from distributed import Nanny, Scheduler, SpecCluster
    spec = {
        "w%d" % i: {"cls": Nanny,
                    "options": {"nthreads": 1, "host": "127.0.0.1", "silence_logs": 40,
                                "env": {"KCC_DEVICE": str(devs[i % len(devs)])}}}
        for i in range(workers)
    }
    sched = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": None}}
    return SpecCluster(workers=spec, scheduler=sched, silence_logs=40)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="*", type=int, help="N CHUNKS ITERS")
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--seed", type=int, default=None, help="default: a fresh random one")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    n, chunks, iters = (a.sizes + [1 << 20, 8, 200][len(a.sizes):])[:3]
    if n < 1 or chunks < 1 or iters < 0:
        ap.error("N and CHUNKS must be at least 1, ITERS at least 0")
    import dask.array as da
    from distributed import Client

    devs = worker_devices()
    if not devs:
        print("dask_map: no device (kcc --devices says why)", file=sys.stderr)
        return 1
    workers = a.workers or len(devs)
    seed = a.seed % 2**32 if a.seed is not None else int(np.random.default_rng().integers(0, 2**32))
    with cluster(workers, devs) as c, Client(c) as client:
        names = client.run(worker_ready)
        print("dask_map: %d elements in %d chunks, %d rounds, %d worker%s"
              % (n, chunks, iters, workers, "" if workers == 1 else "s"))
        info = client.scheduler_info()["workers"]
        for name, addr in sorted((info[a]["name"], a) for a in names):
            print("  worker %s on %s" % (name, names[addr]))
        # The input, i ^ seed, is made by the workers (only the seed travels); the timed result
        # is a sum, so only the chunks' sums come back. meta: without it Dask calls hash_block
        # on an empty block here to learn the result's type, which would compile the kernel in
        # the client (and pickle it with the task).
        x = da.arange(n, chunks=-(-n // chunks), dtype=np.uint32)
        y = x.map_blocks(hash_block, seed, iters, meta=np.empty(0, np.uint32))
        t0 = time.perf_counter()
        total = int(y.sum(dtype=np.uint64).compute())
        seconds = time.perf_counter() - t0
        print("sum of the hashes: %d (seed %d)" % (total, seed))
        print("time: %.3f s for the chunks" % seconds)
        got = y.compute() if a.check else None
    status = 0
    if a.check:
        want = hash_numpy(np.arange(n, dtype=np.uint32), seed, iters)
        ok = np.array_equal(got, want) and total == int(want.sum(dtype=np.uint64))
        print("check: %s" % ("identical to numpy" if ok else "DIFFERS from numpy"))
        status = 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
