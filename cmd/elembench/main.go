// Command elembench shows what elem does on this machine: the CPU and its
// features, the implementation elem chose, the memory-copy bandwidth, and for
// each workload the time per element and the bandwidth of every available
// implementation, with the speedup over the generic Go kernels (which are the
// plain Go loop) and the best bandwidth as a fraction of the copy bandwidth.
//
//	go run ./cmd/elembench                       # the default set, under a minute
//	go run ./cmd/elembench -ops add -types float32 -kinds vv -sizes 8,1000,16000,262144,16777216
//	go run ./cmd/elembench -workers -1 -ops add -types float32 -sizes 16777216   # elem.Parallel* on every core
//	go run ./cmd/elembench -png add.png -svg add.svg   # throughput against size, 8 to 16M elements
//	go run ./cmd/elembench -impls                # list the implementations and exit
package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
	"github.com/simdkit/elem/internal/workloads"
)

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "elembench:", err)
		os.Exit(2)
	}
	if cfg.listImpls {
		fmt.Println(strings.Join(elem.Implementations(), " "))
		return
	}
	printMachine(os.Stdout, cfg)
	copyGBs := copyBandwidth(cfg)
	fmt.Printf("memory copy:    %.1f GB/s (copy() of 64 MiB by %s, read + write counted, median of %d); \"of copy\" below is the best GB/s over this\n\n",
		copyGBs, goroutines(cfg.workers), cfg.reps)
	if cfg.png != "" || cfg.svg != "" {
		if err := plotCurve(os.Stdout, cfg, copyGBs); err != nil {
			fmt.Fprintln(os.Stderr, "elembench:", err)
			os.Exit(1)
		}
		return
	}
	report(os.Stdout, cfg, append(kernelWorkloads(cfg), broadcastWorkloads(cfg)...), copyGBs)
}

type config struct {
	ops       []elem.Op
	types     []string
	kinds     []string
	sizes     []int
	impls     []string
	minTime   time.Duration
	reps      int
	listImpls bool
	workers   int    // 0: the single-threaded calls; N > 0: elem.Parallel* with N workers; -1: with GOMAXPROCS
	png, svg  string // files to draw the curve in, instead of printing the table
	curve     curveSpec
	broadcast []workloads.Broadcast
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("elembench", flag.ContinueOnError)
	ops := fs.String("ops", "add,sub,mul,div,min,max", "operations")
	types := fs.String("types", "float32,float64", "element types")
	kinds := fs.String("kinds", "vv,vs,sv", "kernel kinds: vv = a op b, vs = a op scalar, sv = scalar op a")
	sizes := fs.String("sizes", "8,1000,262144", "element counts")
	impls := fs.String("impl", strings.Join(elem.Implementations(), ","), "implementations to time")
	minTime := fs.Duration("time", 15*time.Millisecond, "minimum duration of one timing")
	reps := fs.Int("reps", 5, "timings per measurement; the median is shown")
	list := fs.Bool("impls", false, "print the implementations this machine can run and exit")
	workers := fs.Int("workers", 0, "0: time the single-threaded calls; N > 0: the elem.Parallel* calls with N workers; -1: with GOMAXPROCS workers")
	png := fs.String("png", "", "draw throughput against size for -plot in this PNG file, instead of printing the table")
	svg := fs.String("svg", "", "the same in this SVG file (both may be given)")
	plotSpec := fs.String("plot", "add/float32/vv", "the workload -png and -svg draw: op/type/kind")
	plotMax := fs.Int("plot-max", 1<<24, "the largest size -png and -svg draw, in elements (from 8, in steps of sqrt(2))")
	bcast := fs.String("broadcast", "all", "broadcast workloads to time (float32; R, R-narrow, K, K-narrow, T3, T3-big, O, G4, G3, S-16K), all, or none")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{types: split(*types), kinds: split(*kinds), impls: split(*impls), minTime: *minTime, reps: *reps, listImpls: *list,
		workers: *workers, png: *png, svg: *svg}
	if cfg.workers < -1 {
		return config{}, fmt.Errorf("bad -workers %d: want 0, N > 0 or -1", cfg.workers)
	}
	if cfg.reps < 1 {
		return config{}, fmt.Errorf("bad -reps %d", cfg.reps)
	}
	var err error
	if cfg.curve, err = parseCurveSpec(*plotSpec, *plotMax); err != nil {
		return config{}, err
	}
	if cfg.broadcast, err = pickBroadcasts(*bcast); err != nil {
		return config{}, err
	}
	for _, name := range split(*ops) {
		op, err := parseOp(name)
		if err != nil {
			return config{}, err
		}
		cfg.ops = append(cfg.ops, op)
	}
	for _, s := range split(*sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return config{}, fmt.Errorf("bad size %q", s)
		}
		cfg.sizes = append(cfg.sizes, n)
	}
	for _, t := range cfg.types {
		if err := checkType(t); err != nil {
			return config{}, err
		}
	}
	for _, k := range cfg.kinds {
		if err := checkKind(k); err != nil {
			return config{}, err
		}
	}
	for _, impl := range cfg.impls {
		if !slices.Contains(elem.Implementations(), impl) {
			return config{}, fmt.Errorf("implementation %q is not available here (have %s)", impl, strings.Join(elem.Implementations(), ", "))
		}
	}
	return cfg, nil
}

func parseOp(name string) (elem.Op, error) {
	i := slices.IndexFunc(elem.Ops(), func(o elem.Op) bool { return o.String() == name })
	if i < 0 {
		return 0, fmt.Errorf("unknown op %q", name)
	}
	return elem.Ops()[i], nil
}

func checkType(t string) error {
	if t != "float32" && t != "float64" {
		return fmt.Errorf("unknown type %q", t)
	}
	return nil
}

func checkKind(k string) error {
	if k != "vv" && k != "vs" && k != "sv" {
		return fmt.Errorf("unknown kind %q", k)
	}
	return nil
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// workload is one timed job. setup allocates and fills its buffers and
// returns the call that does it with the implementation in use; report runs
// it just before timing, so that only one workload's buffers are live.
type workload struct {
	name  string
	elems int   // output elements per run
	bytes int64 // bytes read and written per run
	setup func() func()
}

func kernelWorkloads(cfg config) []workload {
	var ws []workload
	for _, op := range cfg.ops {
		for _, t := range cfg.types {
			for _, k := range cfg.kinds {
				for _, n := range cfg.sizes {
					w := workload{name: fmt.Sprintf("%s/%s/%s/n=%d", op, t, k, n), elems: n, bytes: bytesMoved(t, k, n)}
					if t == "float32" {
						w.setup = func() func() { return kernelCall[float32](op, k, n, cfg.workers) }
					} else {
						w.setup = func() func() { return kernelCall[float64](op, k, n, cfg.workers) }
					}
					ws = append(ws, w)
				}
			}
		}
	}
	return ws
}

// pickBroadcasts returns the broadcast workloads a -broadcast list names.
func pickBroadcasts(list string) ([]workloads.Broadcast, error) {
	switch list {
	case "all":
		return workloads.Broadcasts, nil
	case "none", "":
		return nil, nil
	}
	var ws []workloads.Broadcast
	for _, name := range split(list) {
		i := slices.IndexFunc(workloads.Broadcasts, func(w workloads.Broadcast) bool { return w.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown broadcast workload %q", name)
		}
		ws = append(ws, workloads.Broadcasts[i])
	}
	return ws, nil
}

// broadcastWorkloads are the -broadcast workloads, float32, through a plan
// (RunParallel with -workers), each followed by the contiguous op of the same
// output size, which reads more memory and so bounds what it should cost.
func broadcastWorkloads(cfg config) []workload {
	var ws []workload
	for _, w := range cfg.broadcast {
		out, err := broadcast.Numpy(w.A, w.B)
		if err != nil {
			panic(err) // the workload table is valid
		}
		n, _ := out.Size()
		na, _ := w.A.Size()
		nb, _ := w.B.Size()
		name := fmt.Sprintf("%s %v %s %v", w.Name, w.A, w.Op, w.B)
		ws = append(ws,
			workload{name: name, elems: n, bytes: int64(na+nb+n) * 4, setup: func() func() {
				x, err := workloads.New[float32](w)
				if err != nil {
					panic(err)
				}
				if cfg.workers != 0 {
					return func() { _ = broadcast.RunParallel(x.Plan, max(cfg.workers, 0), x.Op, x.Dst, x.A, x.B) }
				}
				return func() { _ = x.Run() }
			}},
			workload{name: fmt.Sprintf("%s contiguous %s n=%d", w.Name, w.Op, n), elems: n, bytes: bytesMoved("float32", "vv", n),
				setup: func() func() { return kernelCall[float32](w.Op, "vv", n, cfg.workers) }})
	}
	return ws
}

// bytesMoved is the number of bytes a call of kind reads and writes: three
// slices for vv, two for vs and sv.
func bytesMoved(typ, kind string, n int) int64 {
	size := int64(4)
	if typ == "float64" {
		size = 8
	}
	if kind == "vv" {
		return 3 * int64(n) * size
	}
	return 2 * int64(n) * size
}

// kernelCall allocates and fills placed buffers of n elements and returns the
// call of op and kind on them.
func kernelCall[T elem.Float](op elem.Op, kind string, n, workers int) func() {
	bufs := bufplace.Three[T](n)
	for i := range bufs[0] {
		bufs[0][i], bufs[1][i] = T(i%97)+1.5, T(i%89)+0.25
	}
	return call(op, kind, workers, bufs[2], bufs[0], bufs[1])
}

// call returns the call of op and kind that writes dst from a and b (b[0] is
// the scalar of vs and sv): the single-threaded one for workers 0, otherwise
// the Parallel one, where -1 (every core) is the API's 0.
func call[T elem.Float](op elem.Op, kind string, workers int, dst, a, b []T) func() {
	s, w := b[0], max(workers, 0)
	switch {
	case kind == "vv" && workers == 0:
		return func() { elem.Apply(op, dst, a, b) }
	case kind == "vv":
		return func() { elem.ParallelApply(w, op, dst, a, b) }
	case kind == "vs" && workers == 0:
		return func() { elem.ApplyScalar(op, dst, a, s) }
	case kind == "vs":
		return func() { elem.ParallelApplyScalar(w, op, dst, a, s) }
	case workers == 0:
		return func() { elem.ScalarApply(op, dst, s, a) }
	default:
		return func() { elem.ParallelScalarApply(w, op, dst, s, a) }
	}
}

// goroutines describes how many goroutines the calls use.
func goroutines(workers int) string {
	switch {
	case workers == 0:
		return "1 goroutine"
	case workers < 0:
		return fmt.Sprintf("%d goroutines (GOMAXPROCS)", runtime.GOMAXPROCS(0))
	}
	return fmt.Sprintf("%d goroutines", workers)
}

func printMachine(w io.Writer, cfg config) {
	fmt.Fprintf(w, "CPU:            %s (%s/%s, %d CPUs, Go %s)\n", cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(w, "CPU features:   %s\n", strings.Join(cpuFeatures(), " "))
	fmt.Fprintf(w, "elem uses:      %s (available: %s; force one with ELEM_IMPL)\n", elem.Implementation(), strings.Join(elem.Implementations(), ", "))
	fmt.Fprintf(w, "buffers:        a, b, dst at %v bytes after page boundaries; medians of repeated timings\n", bufplace.Offsets)
	calls := "the single-threaded calls (elem.Apply, ...)"
	if cfg.workers != 0 {
		calls = fmt.Sprintf("elem.ParallelApply, ... with up to %s, each given at least 32768 elements", goroutines(cfg.workers))
	}
	fmt.Fprintf(w, "calls:          %s\n", calls)
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown model"
}

// report times every workload with every implementation and prints one row
// per workload as soon as it is measured; copyGBs is the reference of the
// "of copy" column.
func report(w io.Writer, cfg config, ws []workload, copyGBs float64) {
	width := len("workload")
	for _, wl := range ws {
		width = max(width, len(wl.name))
	}
	fmt.Fprintf(w, "%-*s", width, "workload")
	for _, impl := range cfg.impls {
		fmt.Fprintf(w, "  %16s", impl+" ns/elem GB/s")
	}
	fmt.Fprintf(w, "  %s  %s\n", "of copy", "speedup over generic")
	defer elem.SetImplementation(elem.Implementation())
	for _, wl := range ws {
		fmt.Fprintf(w, "%-*s", width, wl.name)
		run := wl.setup()
		perImpl := map[string]float64{}
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			ns := measure(run, cfg.minTime, cfg.reps)
			perImpl[impl] = ns
			fmt.Fprintf(w, "  %9.3f %6.1f", ns/float64(wl.elems), float64(wl.bytes)/ns)
		}
		fmt.Fprintf(w, "  %7.2f  %s\n", float64(wl.bytes)/slices.Min(slices.Collect(maps.Values(perImpl)))/copyGBs, speedup(perImpl))
	}
}

// speedup is how much faster the best non-generic implementation is than the
// generic kernels.
func speedup(ns map[string]float64) string {
	g, ok := ns["generic"]
	if !ok {
		return "-"
	}
	best := g
	for impl, v := range ns {
		if impl != "generic" && v < best {
			best = v
		}
	}
	return fmt.Sprintf("%.1fx", g/best)
}

// measure returns the median time of one call of f in nanoseconds.
func measure(f func(), minTime time.Duration, reps int) float64 {
	iters := 1
	for {
		start := time.Now()
		for range iters {
			f()
		}
		if d := time.Since(start); d >= minTime/4 || iters >= 1<<30 {
			iters = max(1, int(float64(iters)*float64(minTime)/float64(max(d, time.Microsecond))))
			break
		}
		iters *= 4
	}
	times := make([]float64, reps)
	for i := range times {
		start := time.Now()
		for range iters {
			f()
		}
		times[i] = float64(time.Since(start).Nanoseconds()) / float64(iters)
	}
	slices.Sort(times)
	return times[len(times)/2]
}
