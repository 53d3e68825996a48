// Command elembench shows what elem does on this machine: the CPU and its
// features, the implementation elem chose, and for each workload the time per
// element and the bandwidth of every available implementation, with the
// speedup over the generic Go kernels (which are the plain Go loop).
//
//	go run ./cmd/elembench                       # the default set, under a minute
//	go run ./cmd/elembench -ops add -types float32 -kinds vv -sizes 8,1000,16000,262144,16777216
//	go run ./cmd/elembench -impls                # list the implementations and exit
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/bufplace"
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
	printMachine(os.Stdout)
	report(os.Stdout, cfg, kernelWorkloads(cfg))
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
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	cfg := config{types: split(*types), kinds: split(*kinds), impls: split(*impls), minTime: *minTime, reps: *reps, listImpls: *list}
	for _, name := range split(*ops) {
		i := slices.IndexFunc(elem.Ops(), func(o elem.Op) bool { return o.String() == name })
		if i < 0 {
			return config{}, fmt.Errorf("unknown op %q", name)
		}
		cfg.ops = append(cfg.ops, elem.Ops()[i])
	}
	for _, s := range split(*sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return config{}, fmt.Errorf("bad size %q", s)
		}
		cfg.sizes = append(cfg.sizes, n)
	}
	for _, t := range cfg.types {
		if t != "float32" && t != "float64" {
			return config{}, fmt.Errorf("unknown type %q", t)
		}
	}
	for _, k := range cfg.kinds {
		if k != "vv" && k != "vs" && k != "sv" {
			return config{}, fmt.Errorf("unknown kind %q", k)
		}
	}
	for _, impl := range cfg.impls {
		if !slices.Contains(elem.Implementations(), impl) {
			return config{}, fmt.Errorf("implementation %q is not available here (have %s)", impl, strings.Join(elem.Implementations(), ", "))
		}
	}
	return cfg, nil
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

// workload is one timed job; run does it with the implementation in use.
type workload struct {
	name  string
	elems int   // output elements per run
	bytes int64 // bytes read and written per run
	run   func()
}

func kernelWorkloads(cfg config) []workload {
	var ws []workload
	for _, op := range cfg.ops {
		for _, t := range cfg.types {
			for _, k := range cfg.kinds {
				for _, n := range cfg.sizes {
					if t == "float32" {
						ws = append(ws, kernelWorkload[float32](op, t, k, n))
					} else {
						ws = append(ws, kernelWorkload[float64](op, t, k, n))
					}
				}
			}
		}
	}
	return ws
}

func kernelWorkload[T elem.Float](op elem.Op, typ, kind string, n int) workload {
	bufs := bufplace.Three[T](n)
	a, b, dst := bufs[0], bufs[1], bufs[2]
	for i := range a {
		a[i], b[i] = T(i%97)+1.5, T(i%89)+0.25
	}
	s := b[0]
	size := int64(4)
	if typ == "float64" {
		size = 8
	}
	w := workload{name: fmt.Sprintf("%s/%s/%s/n=%d", op, typ, kind, n), elems: n, bytes: 2 * int64(n) * size}
	switch kind {
	case "vv":
		w.bytes = 3 * int64(n) * size
		w.run = func() { elem.Apply(op, dst, a, b) }
	case "vs":
		w.run = func() { elem.ApplyScalar(op, dst, a, s) }
	default:
		w.run = func() { elem.ScalarApply(op, dst, s, a) }
	}
	return w
}

func printMachine(w io.Writer) {
	fmt.Fprintf(w, "CPU:            %s (%s/%s, %d CPUs, Go %s)\n", cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(w, "CPU features:   %s\n", strings.Join(cpuFeatures(), " "))
	fmt.Fprintf(w, "elem uses:      %s (available: %s; force one with ELEM_IMPL)\n", elem.Implementation(), strings.Join(elem.Implementations(), ", "))
	fmt.Fprintf(w, "buffers:        a, b, dst at %v bytes after page boundaries; medians of repeated timings\n\n", bufplace.Offsets)
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
// per workload as soon as it is measured.
func report(w io.Writer, cfg config, ws []workload) {
	width := len("workload")
	for _, wl := range ws {
		width = max(width, len(wl.name))
	}
	fmt.Fprintf(w, "%-*s", width, "workload")
	for _, impl := range cfg.impls {
		fmt.Fprintf(w, "  %16s", impl+" ns/elem GB/s")
	}
	fmt.Fprintf(w, "  %s\n", "speedup over generic")
	defer elem.SetImplementation(elem.Implementation())
	for _, wl := range ws {
		fmt.Fprintf(w, "%-*s", width, wl.name)
		perImpl := map[string]float64{}
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			ns := measure(wl.run, cfg.minTime, cfg.reps)
			perImpl[impl] = ns
			fmt.Fprintf(w, "  %9.3f %6.1f", ns/float64(wl.elems), float64(wl.bytes)/ns)
		}
		fmt.Fprintf(w, "  %s\n", speedup(perImpl))
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
