# The NumPy and PyTorch side of issue 23's speed table (vector math): ns per element at
# n = 16000, one thread (medians of 31 timings of 200 calls), on the arguments elembench -math
# uses, and the largest error in ulps over 2^20 float32 arguments (every 4096th bit pattern)
# and 2^16 float64 ones, against NumPy's float64 (float32) or against mpmath-free float64
# references made exact enough by a float128 where the platform has one (long double).
# Run with the system Python that has both:  /usr/bin/python3 tools/peers/math.py
import time, warnings, numpy as np, torch

warnings.filterwarnings("ignore")

torch.set_num_threads(1)
N = 16000

def med(f, reps=31, inner=200):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for _ in range(inner):
            f()
        ts.append((time.perf_counter_ns() - t0) / inner)
    ts.sort()
    return ts[len(ts) // 2]

def args(name, dtype):
    u = (np.arange(N) * 7919 % 4000) / 4000.0
    if name in ("sin", "cos"):
        x = -100 + 200 * u
    elif name.startswith("log"):
        x = 1e-3 + 100 * u
    else:
        x = -10 + 20 * u
    return x.astype(dtype)

def sigmoid_np(x):
    return 1 / (1 + np.exp(-x))

FUNCS = {  # name: (numpy, torch)
    "exp": (np.exp, torch.exp),
    "log": (np.log, torch.log),
    "tanh": (np.tanh, torch.tanh),
    "sigmoid": (sigmoid_np, torch.sigmoid),
    "sin": (np.sin, torch.sin),
    "cos": (np.cos, torch.cos),
    "erf": (None, torch.erf),
    "exp2": (np.exp2, torch.exp2),
    "expm1": (np.expm1, torch.expm1),
    "log2": (np.log2, torch.log2),
    "log10": (np.log10, torch.log10),
    "log1p": (np.log1p, torch.log1p),
}

def ulp32(got, ref):
    # where the exact value is a normal float32
    ref = ref.astype(np.float64)
    got = got.astype(np.float64)
    ok = (np.abs(ref) >= 2.0**-126) & (np.abs(ref) <= np.finfo(np.float32).max)
    r = np.abs(ref[ok]).astype(np.float32)
    e = np.frexp(r)[1].astype(np.int64)
    ulp = np.ldexp(1.0, np.maximum(e - 24, -149))
    return float(np.max(np.abs(got[ok] - ref[ok]) / ulp)) if ok.any() else 0.0

def ulp64(got, ref):  # ref in long double; where it is a normal float64
    ok = (np.abs(ref) >= np.longdouble(2.0)**-1022) & (np.abs(ref) <= np.finfo(np.float64).max)
    r = np.abs(ref[ok]).astype(np.float64)
    e = np.frexp(r)[1].astype(np.int64)
    ulp = np.ldexp(np.longdouble(1), np.maximum(e - 53, -1074))
    return float(np.max(np.abs(got[ok].astype(np.longdouble) - ref[ok]) / ulp)) if ok.any() else 0.0

def sample32(name):
    b = np.arange(0, 1 << 32, 4096, dtype=np.uint64).astype(np.uint32).view(np.float32)
    b = b[np.isfinite(b) & (np.abs(b) >= 2.0**-126)]
    if name.startswith("log"):
        b = b[b > (-1 if name == "log1p" else 0)]
    if name in ("sin", "cos"):
        b = b[np.abs(b) < 1e4]
    return b

ref64 = {"exp": np.exp, "log": np.log, "tanh": np.tanh, "sin": np.sin, "cos": np.cos, "exp2": np.exp2,
         "expm1": np.expm1, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sigmoid": sigmoid_np}

print(f"{'function':8s} {'type':8s} {'numpy ns/el':>12s} {'torch ns/el':>12s} {'numpy ulp':>10s} {'torch ulp':>10s}")
for name, (fn, ft) in FUNCS.items():
    for dtype in (np.float32, np.float64):
        a = args(name, dtype)
        t = torch.from_numpy(a)
        tn = med(lambda: fn(a)) / N if fn else float("nan")
        tt = med(lambda: ft(t)) / N
        if dtype == np.float32:
            x = sample32(name)
            if name == "erf":
                ref = None
            else:
                ref = ref64[name](x.astype(np.float64))
            un = ulp32(fn(x), ref) if fn and ref is not None else float("nan")
            ut = ulp32(ft(torch.from_numpy(x)).numpy(), ref) if ref is not None else float("nan")
        else:
            x = np.random.default_rng(1).uniform(-10, 10, 1 << 16)
            if name.startswith("log"):
                x = np.abs(x) + 1e-3
            ref = None
            if name in ("exp", "log", "sin", "cos", "tanh"):
                ref = getattr(np, name)(x.astype(np.longdouble))
            un = ulp64(fn(x), ref) if fn and ref is not None else float("nan")
            ut = ulp64(ft(torch.from_numpy(x)).numpy(), ref) if ref is not None else float("nan")
        print(f"{name:8s} {np.dtype(dtype).name:8s} {tn:12.3f} {tt:12.3f} {un:10.2f} {ut:10.2f}")
