"""NumPy's side of issue 27's table: complex calls at n = 16000, single
thread, median of 31 runs of 200 calls each, in microseconds per call.

    /usr/bin/python3 tools/peers/complex.py
"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import statistics
import timeit

import numpy as np

n = 16000
rng = np.random.default_rng(1)
a128 = rng.standard_normal(n) + 1j * rng.standard_normal(n)
b128 = rng.standard_normal(n) + 1j * rng.standard_normal(n)
a64, b64 = a128.astype(np.complex64), b128.astype(np.complex64)
d64, d128 = np.empty_like(a64), np.empty_like(a128)
f32, f64 = np.empty(n, np.float32), np.empty(n, np.float64)

cases = [
    ("c64 Mul (np.multiply, out=)", lambda: np.multiply(a64, b64, out=d64)),
    ("c128 Mul (np.multiply, out=)", lambda: np.multiply(a128, b128, out=d128)),
    ("c64 Magnitude (np.abs, out=)", lambda: np.abs(a64, out=f32)),
    ("c128 Magnitude (np.abs, out=)", lambda: np.abs(a128, out=f64)),
    ("c64 Phase (np.angle)", lambda: np.angle(a64)),
    ("c128 Phase (np.angle)", lambda: np.angle(a128)),
    ("c64 Dot (np.dot)", lambda: np.dot(a64, b64)),
    ("c128 DotConj (np.vdot)", lambda: np.vdot(b128, a128)),
]
print(f"numpy {np.__version__}")
for name, f in cases:
    times = [t / 200 * 1e6 for t in timeit.repeat(f, number=200, repeat=31)]
    print(f"{name:32s} {statistics.median(times):8.2f} us")
