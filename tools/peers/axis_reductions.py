# The peers of issue 24's speed table (axis reductions, softmax), float32, NumPy and PyTorch
# with one thread: medians of 31 timings, ns per call. Run with the system Python that has both:
#   /usr/bin/python3 tools/peers/axis_reductions.py
# and beside it: go test ./broadcast -run XXX -bench AxisReductions -benchtime 40x -count 5
import time, numpy as np, torch
torch.set_num_threads(1)
def med(f, reps=31):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns(); f(); ts.append(time.perf_counter_ns() - t0)
    ts.sort(); return ts[len(ts)//2]
for shape, axis in [((1024,1024),0), ((1024,1024),1), ((1048576,3),1), ((32,1000),1)]:
    n = shape[0]*shape[1]
    a = ((np.arange(n) % 1013) * 0.01 - 3).astype(np.float32).reshape(shape)
    t = torch.from_numpy(a)
    name = f"{shape[0]}x{shape[1]}/axis{axis}"
    rows = {
        "np sum(all)": lambda: a.sum(),
        "np max": lambda: a.max(axis=axis),
        "np mean": lambda: a.mean(axis=axis),
        "np argmax": lambda: a.argmax(axis=axis),
        "np var": lambda: a.var(axis=axis),
        "np std": lambda: a.std(axis=axis),
        "np exp": lambda: np.exp(a),
        "np softmax": lambda: (lambda e: e / e.sum(axis=axis, keepdims=True))(np.exp(a - a.max(axis=axis, keepdims=True))),
        "torch max": lambda: t.amax(dim=axis),
        "torch mean": lambda: t.mean(dim=axis),
        "torch argmax": lambda: t.argmax(dim=axis),
        "torch var": lambda: t.var(dim=axis, unbiased=False),
        "torch std": lambda: t.std(dim=axis, unbiased=False),
        "torch exp": lambda: torch.exp(t),
        "torch softmax": lambda: torch.softmax(t, dim=axis),
        "torch log_softmax": lambda: torch.log_softmax(t, dim=axis),
        "torch logsumexp": lambda: torch.logsumexp(t, dim=axis),
    }
    for k, f in rows.items():
        print(f"{name:22s} {k:20s} {med(f):12d} ns")
