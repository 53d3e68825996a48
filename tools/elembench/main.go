// Command elembench shows what elem does on this machine: the CPU, its
// features and caches, the implementation elem chose, the memory-copy
// bandwidth, and for each workload the time per element, the bandwidth and
// the spread of the timings of every available implementation, the speedup
// of each over the generic Go kernels (which are the plain Go loop), and the
// fastest one's bandwidth as a fraction of copy() moving the same bytes. A
// legend before the table explains the columns and the workloads, and marks
// noisy figures.
//
//	go run ./cmd/elembench                       # the default set, under a minute
//	go run ./cmd/elembench -ops add -types float32 -kinds vv -sizes 8,1000,16000,262144,16777216
//	go run ./cmd/elembench -workers -1 -ops add -types float32 -sizes 16777216   # elem.Parallel* on every core
//	go run ./cmd/elembench -types uint8,int16,int32,int64 -ops add,mul,max -broadcast none   # the integer types
//	go run ./cmd/elembench -ops sqrt,abs,fma,lt,select -sizes 1000,16000 -broadcast none   # the other families (-ops all: every op)
//	go run ./cmd/elembench -png add.png -svg add.svg   # throughput against size, 8 to 16M elements
//	go run ./cmd/elembench -png add.png -plot-y ns -plot-logy   # ns/elem on a log scale instead
//	go run ./cmd/elembench -reduce               # Sum, Dot, MaxOf, ArgMax, axis sums against the loops, gonum and vek
//	go run ./cmd/elembench -expr                 # fused expressions (package expr) against op by op and one Add
//	go run ./cmd/elembench -reduce -types int32,int64,uint8 -sizes 1000,16000   # integer reductions
//	go run ./cmd/elembench -views                # strided views (a + b.T, a column, a sub-view) against contiguous ops: views: worst view/contiguous = R
//	go run ./cmd/elembench -small                # short calls (n = 1 to 1000) against the plain loops: small: worst elem/loop at n<=16 = R
//	go run ./cmd/elembench -math                 # Exp, Log, Tanh, ... per type and implementation: ns/elem, x the math loop, max ulp
//	go run ./cmd/elembench -impls                # list the implementations and exit
//	go run ./cmd/elembench -tune                 # crossovers on this machine beside the library's, overrides to paste
//	go run ./cmd/elembench -tune -check          # the automatic choice against every forced one: tune: worst auto/best = R
package main

import (
	"errors"
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
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
	"github.com/simdkit/elem/internal/workloads"
)

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) { // the usage is printed: a request, not a failure, as for flag.ExitOnError
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "elembench:", err)
		os.Exit(2)
	}
	if cfg.listImpls {
		fmt.Println(strings.Join(elem.Implementations(), " "))
		return
	}
	printMachine(os.Stdout, cfg)
	if cfg.tune {
		fmt.Println()
		tune(os.Stdout, cfg)
		return
	}
	if cfg.expr {
		fmt.Println()
		if err := reportExpr(os.Stdout, cfg); err != nil {
			fmt.Fprintln(os.Stderr, "elembench:", err)
			os.Exit(1)
		}
		return
	}
	if cfg.small {
		fmt.Println()
		reportSmall(os.Stdout, cfg)
		return
	}
	if cfg.math {
		fmt.Println()
		reportMath(os.Stdout, cfg)
		return
	}
	copies := newCopyRefs(cfg.workers, cfg.minTime, cfg.reps)
	const memBytes = 64 << 20
	mem := copies.at(2*memBytes, memBytes/4)
	fmt.Printf("memory copy:    %.1f GB/s, spread %s (copy() of 64 MiB by %s, read + write counted, median of %d)\n\n",
		2*memBytes/mem.median, strings.TrimSpace(spreadCell(mem)), goroutines(cfg.workers), cfg.reps)
	if cfg.png != "" || cfg.svg != "" {
		if err := plotCurve(os.Stdout, cfg, copies); err != nil {
			fmt.Fprintln(os.Stderr, "elembench:", err)
			os.Exit(1)
		}
		return
	}
	if cfg.reduce {
		reportReduce(os.Stdout, cfg)
		return
	}
	if cfg.views {
		reportViews(os.Stdout, cfg)
		return
	}
	kernels := kernelWorkloads(cfg)
	var kinds []string
	if len(kernels) > 0 {
		kinds = cfg.kinds
	}
	fmt.Println(legend(cfg, kinds))
	report(os.Stdout, cfg, append(kernels, broadcastWorkloads(cfg)...), copies)
}

type config struct {
	ops       []benchOp
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
	reduce    bool            // time the reductions instead of the elementwise table
	math      bool            // -math: the math functions per type and implementation
	mathOps   map[string]bool // -math -ops: the functions to time (all when nil)
	views     bool            // time the strided-view workloads instead of the elementwise table
	tune      bool            // -tune: crossovers of implementations and store modes on this machine
	check     bool            // -tune -check: the automatic choice against every forced one on the bar's calls
	expr      bool            // -expr: the fused expressions against op by op and Add
	small     bool            // -small: the named calls on short slices against the plain loops
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("elembench", flag.ContinueOnError)
	ops := fs.String("ops", strings.Join(opNames(elem.Ops()), ","), "operations: any of "+strings.Join(opNames(benchOps()), ",")+", or all")
	types := fs.String("types", "float32,float64", "element types: "+strings.Join(typeNames, ", "))
	kinds := fs.String("kinds", "vv,vs,sv,v,vvv", "kernel kinds, each op timed in those it has: vv = a op b, vs = a op scalar, sv = scalar op a, v = op a, vvv = op(a, b, c)")
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
	plotY := fs.String("plot-y", "gbs", "what -png and -svg draw up the y axis: gbs (GB/s) or ns (ns per element)")
	plotLogY := fs.Bool("plot-logy", false, "draw -png and -svg with a log-scale y axis")
	reduce := fs.Bool("reduce", false, "time Sum, Dot, MaxOf, ArgMax on -types (at -sizes 1000,16000,262144 unless given) and broadcast.ReduceSum row and column sums against the plain Go loops, gonum's floats and vek, instead of the elementwise table")
	views := fs.Bool("views", false, "time broadcast.ApplyView on a + b.T (1024 x 1024), a column view (1024 elements, stride 1024) and a bias add on a 512 x 512 sub-view against the contiguous ops of the same size, ending with the line `views: worst view/contiguous = R`, instead of the elementwise table")
	bcast := fs.String("broadcast", "all", "broadcast workloads to time (float32; R, R-narrow, K, K-narrow, T3, T3-big, O, G4, G3, S-16K), all, or none")
	tuneFlag := fs.Bool("tune", false, "measure which implementation is fastest at which size, and from which size streaming stores pay, on this machine; print the crossovers beside the library's and the ELEM_IMPL / ELEM_STREAM_MIN lines to paste where they disagree (-reps rounds, -time each)")
	check := fs.Bool("check", false, "with -tune: time the automatic choice against every forced implementation and store mode for float32 and float64 add, mul, div, max, vv and vs at n = 8 to 16M, ending with the line `tune: worst auto/best = R`")
	exprFlag := fs.Bool("expr", false, "time the fused expressions of package expr (N, B, A at 16M, 16000 and 1000 elements) against the same ops one at a time and one elem.Add, ending with the line `expr: worst 16M fused/Add = R`")
	mathFlag := fs.Bool("math", false, "time the math functions (those of -ops, when given) (Exp, Log, Tanh, ...) on float32 and float64 under every implementation against the math loop, with the measured max ulp, instead of the elementwise table")
	small := fs.Bool("small", false, "time named calls of every family and the reductions at n = 1, 2, 4, 8, 16, 32, 64, 1000 against the plain Go loop each replaces, ending with the line `small: worst elem/loop at n<=16 = R`, instead of the elementwise table")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if *check && !*tuneFlag {
		return config{}, fmt.Errorf("-check needs -tune")
	}
	if *tuneFlag {
		// -tune compares modes round by round: many short timings.
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["time"] {
			*minTime = tuneMinTime
		}
		if !set["reps"] {
			*reps = tuneRounds
		}
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{types: split(*types), kinds: split(*kinds), impls: split(*impls), minTime: *minTime, reps: *reps, listImpls: *list,
		workers: *workers, png: *png, svg: *svg, reduce: *reduce, views: *views, tune: *tuneFlag, check: *check, expr: *exprFlag, small: *small, math: *mathFlag}
	if cfg.workers < -1 {
		return config{}, fmt.Errorf("bad -workers %d: want 0, N > 0 or -1", cfg.workers)
	}
	if cfg.reps < 1 {
		return config{}, fmt.Errorf("bad -reps %d", cfg.reps)
	}
	var err error
	if cfg.curve, err = parseCurveSpec(*plotSpec, *plotMax, *plotY, *plotLogY); err != nil {
		return config{}, err
	}
	if cfg.broadcast, err = pickBroadcasts(*bcast); err != nil {
		return config{}, err
	}
	if *ops == "all" {
		cfg.ops = benchOps()
	}
	for _, name := range split(*ops) {
		if name == "all" {
			break
		}
		op, err := parseOp(name)
		if err != nil {
			return config{}, err
		}
		if _, binary := op.op.(elem.Op); !binary && cfg.workers != 0 {
			return config{}, fmt.Errorf("-workers times the binary ops only, not %s", name)
		}
		cfg.ops = append(cfg.ops, op)
	}
	if cfg.math && flagSet(fs, "ops") && *ops != "all" {
		cfg.mathOps = map[string]bool{}
		for _, name := range split(*ops) {
			cfg.mathOps[name] = true
		}
	}
	if *reduce && !flagSet(fs, "sizes") {
		*sizes = "1000,16000,262144"
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

// flagSet reports whether the command line set flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// opNames lists ops by name.
func opNames[O interface{ String() string }](ops []O) []string {
	var names []string
	for _, op := range ops {
		names = append(names, op.String())
	}
	return names
}

// String names the op as -ops does.
func (o benchOp) String() string { return o.name }

func parseOp(name string) (benchOp, error) {
	ops := benchOps()
	i := slices.IndexFunc(ops, func(o benchOp) bool { return o.name == name })
	if i < 0 {
		return benchOp{}, fmt.Errorf("unknown op %q", name)
	}
	return ops[i], nil
}

func checkType(t string) error {
	if _, ok := elemTypes[t]; !ok {
		return fmt.Errorf("unknown type %q (want one of %s)", t, strings.Join(typeNames, ", "))
	}
	return nil
}

// elemType is an element type elembench times: whether a binary op is
// defined on it, and its typed setups.
type elemType struct {
	defined func(op any) bool // an op of benchOp.op's types
	kernel  func(op elem.Op, kind string, n, workers int) func()
	family  func(o benchOp, kind string, n int) func() // the non-binary ops
	curve   func(w io.Writer, cfg config, sizes []int, copies *copyRefs) curveTimings
	reduce  func(name string, n int) (call, loop func(), peers map[string]func())
}

func floatType[T elem.Float]() elemType {
	return elemType{definedOn[T], kernelCall[T], familyCall[T], measureCurve[T], reduceCallsOf[T]}
}

func intType[T elem.Integer]() elemType {
	return elemType{definedOn[T], kernelCall[T], intFamilyCall[T], measureCurve[T], reduceCallsOf[T]}
}

// typeNames are the -types names, in order.
var typeNames = []string{"float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}

var elemTypes = map[string]elemType{
	"float32": floatType[float32](), "float64": floatType[float64](),
	"int8": intType[int8](), "int16": intType[int16](), "int32": intType[int32](), "int64": intType[int64](),
	"uint8": intType[uint8](), "uint16": intType[uint16](), "uint32": intType[uint32](), "uint64": intType[uint64](),
}

func checkKind(k string) error {
	if _, ok := kindFormulas[k]; !ok {
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
	for _, o := range cfg.ops {
		for _, t := range cfg.types {
			for _, k := range cfg.kinds {
				if _, has := o.kinds[k]; !has || !o.definedOn(t) {
					continue // add has no kind v; div and sqrt are not defined on the integers
				}
				for _, n := range cfg.sizes {
					setup := func() func() { return elemTypes[t].family(o, k, n) }
					if op, binary := o.op.(elem.Op); binary {
						setup = func() func() { return elemTypes[t].kernel(op, k, n, cfg.workers) }
					}
					ws = append(ws, workload{name: fmt.Sprintf("%s/%s/%s/n=%d", o.name, t, k, n), elems: n, bytes: o.bytes(t, k, n),
						setup: setup})
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

// bytesMoved is the number of bytes a binary call of kind reads and writes:
// three slices for vv, two for vs and sv.
func bytesMoved(typ, kind string, n int) int64 {
	if kind == "vv" {
		return 3 * int64(n) * elemSize(typ)
	}
	return 2 * int64(n) * elemSize(typ)
}

// elemSize is the size in bytes of the element type named typ.
func elemSize(typ string) int64 {
	bits, _ := strconv.Atoi(strings.TrimLeft(typ, "abcdefghijklmnopqrstuvwxyz")) // "float32": 32
	return int64(bits / 8)
}

// kernelCall allocates and fills placed buffers of n elements and returns the
// call of op and kind on them.
func kernelCall[T elem.Number](op elem.Op, kind string, n, workers int) func() {
	bufs := bufplace.Three[T](n)
	fill(bufs[0], bufs[1])
	return call(op, kind, workers, bufs[2], bufs[0], bufs[1])
}

// fill writes ordinary values into a and b: no page stays the shared zero
// page, no divisor is zero, and the floats have fractions.
func fill[T elem.Number](a, b []T) {
	for i := range a {
		a[i], b[i] = T(i%97)+T(3)/2, T(i%89)+1+T(1)/4
	}
}

// call returns the call of op and kind that writes dst from a and b (b[0] is
// the scalar of vs and sv): the single-threaded one for workers 0, otherwise
// the Parallel one, where -1 (every core) is the API's 0.
func call[T elem.Number](op elem.Op, kind string, workers int, dst, a, b []T) func() {
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
	cs := elem.CacheSizes()
	fmt.Fprintf(w, "caches:         %s (elem.CacheSizes, from %s)\n", describeCaches(dataCaches(cs)), cs.Source)
	fmt.Fprintf(w, "elem uses:      %s (available: %s; force one with ELEM_IMPL)\n", elem.Implementation(), strings.Join(elem.Implementations(), ", "))
	fmt.Fprintf(w, "dispatch:       %s\n", elem.Dispatch())
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

// report times every workload with every implementation and the copy of
// the same bytes, and prints one row per workload as soon as it is measured.
func report(w io.Writer, cfg config, ws []workload, copies *copyRefs) {
	width := len("workload")
	for _, wl := range ws {
		width = max(width, len(wl.name))
	}
	cs := tableColumns(cfg.impls)
	printHeader(w, width, cs)
	defer elem.SetImplementation(elem.Auto)
	for _, wl := range ws {
		run := wl.setup()
		runtime.GC() // the last workload's buffers: collect them now rather than during the timings
		ts := map[string]timing{}
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			ts[impl] = measure(run, cfg.minTime, cfg.reps)
		}
		printRow(w, width, wl.name, cs, rowCells(wl, cfg.impls, ts, copies.at(wl.bytes, wl.elems)))
	}
}
