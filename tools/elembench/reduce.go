package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/floats"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/broadcast"
	"github.com/simdkit/elem/internal/bufplace"
)

// reducePeers are the libraries -reduce times beside elem: gonum's floats
// (float64 only) and vek (vek32 for float32); neither has integer
// reductions.
var reducePeers = []string{"gonum", "vek"}

// reduceRow is one -reduce workload: elem's call, the plain Go loop a user
// would write instead, and the peers' calls (nil where a peer has none).
type reduceRow struct {
	name  string
	elems int
	setup func() (call, loop func(), peers map[string]func())
}

// reduceRows are the -reduce workloads: Sum, Dot, MaxOf and ArgMax of each
// type and size, then the row and column sums of a 1024 x 1024 float32
// matrix and the contiguous Add over the same input size.
func reduceRows(cfg config) []reduceRow {
	var rows []reduceRow
	for _, t := range cfg.types {
		for _, name := range []string{"Sum", "Dot", "MaxOf", "ArgMax"} {
			for _, n := range cfg.sizes {
				rows = append(rows, reduceRow{name: fmt.Sprintf("%s/%s/n=%d", name, t, n), elems: n,
					setup: func() (func(), func(), map[string]func()) { return reduceCalls(t, name, n) }})
			}
		}
	}
	const side = 1024
	for _, axis := range []int{1, 0} {
		rows = append(rows, reduceRow{name: fmt.Sprintf("ReduceSum axis=%d/float32/%dx%d", axis, side, side), elems: side * side,
			setup: func() (func(), func(), map[string]func()) { return axisCalls(axis, side) }})
	}
	rows = append(rows, reduceRow{name: fmt.Sprintf("Add/float32/n=%d (contiguous, same input)", side*side), elems: side * side,
		setup: func() (func(), func(), map[string]func()) {
			x, y, dst := placed[float32](side * side)
			return func() { elem.Add(dst, x, y) }, func() {
				for i := range dst {
					dst[i] = x[i] + y[i]
				}
			}, nil
		}})
	return rows
}

// sink keeps results alive: every call adds its result, and reportReduce
// hands the total to runtime.KeepAlive so the calls cannot be dropped.
var sink float64

// placed returns two inputs and an output of n elements at bufplace's
// offsets, the inputs filled with ordinary values (truncated for the
// integer types).
func placed[T elem.Number](n int) (x, y, dst []T) {
	bufs := bufplace.Three[T](n)
	for i := range bufs[0] {
		bufs[0][i], bufs[1][i] = T(float64(i%97)+1.5), T(float64(i%89)+0.25)
	}
	return bufs[0], bufs[1], bufs[2]
}

// reduceCalls returns elem's call of reduction name on n elements of type
// t, the plain loop, and the peers' calls.
func reduceCalls(t, name string, n int) (func(), func(), map[string]func()) {
	switch t {
	case "float32":
		return reduceCalls32(name, n)
	case "float64":
		return reduceCalls64(name, n)
	}
	return elemTypes[t].reduce(name, n)
}

// reduceCallsOf returns elem's call and the plain loop on T, with no
// peers: those of the integer types.
func reduceCallsOf[T elem.Number](name string, n int) (func(), func(), map[string]func()) {
	x, y, _ := placed[T](n)
	call, loop := reduceCall(name, x, y)
	return call, loop, nil
}

// reduceCall returns elem's call and the plain loop of reduction name.
func reduceCall[T elem.Number](name string, x, y []T) (call, loop func()) {
	switch name {
	case "Sum":
		return func() { sink += float64(elem.Sum(x)) }, func() {
			var s T
			for _, v := range x {
				s += v
			}
			sink += float64(s)
		}
	case "Dot":
		return func() { sink += float64(elem.Dot(x, y)) }, func() {
			var s T
			for i, v := range x {
				s += v * y[i]
			}
			sink += float64(s)
		}
	case "MaxOf":
		return func() { sink += float64(elem.MaxOf(x)) }, func() {
			m := x[0]
			for _, v := range x[1:] {
				m = max(m, v)
			}
			sink += float64(m)
		}
	}
	return func() { sink += float64(elem.ArgMax(x)) }, func() {
		best, at := x[0], 0
		for i, v := range x {
			if v > best {
				best, at = v, i
			}
		}
		sink += float64(at)
	}
}

func reduceCalls32(name string, n int) (func(), func(), map[string]func()) {
	x, y, _ := placed[float32](n)
	call, loop := reduceCall(name, x, y)
	peer := map[string]func(){
		"Sum":    func() { sink += float64(vek32.Sum(x)) },
		"Dot":    func() { sink += float64(vek32.Dot(x, y)) },
		"MaxOf":  func() { sink += float64(vek32.Max(x)) },
		"ArgMax": func() { sink += float64(vek32.ArgMax(x)) },
	}[name]
	return call, loop, map[string]func(){"vek": peer}
}

func reduceCalls64(name string, n int) (func(), func(), map[string]func()) {
	x, y, _ := placed[float64](n)
	call, loop := reduceCall(name, x, y)
	peers := map[string]map[string]func(){
		"Sum":    {"gonum": func() { sink += floats.Sum(x) }, "vek": func() { sink += vek.Sum(x) }},
		"Dot":    {"gonum": func() { sink += floats.Dot(x, y) }, "vek": func() { sink += vek.Dot(x, y) }},
		"MaxOf":  {"gonum": func() { sink += floats.Max(x) }, "vek": func() { sink += vek.Max(x) }},
		"ArgMax": {"gonum": func() { sink += float64(floats.MaxIdx(x)) }, "vek": func() { sink += float64(vek.ArgMax(x)) }},
	}
	return call, loop, peers[name]
}

// axisCalls returns broadcast.ReduceSum over axis of a side x side float32
// matrix and its plain loops.
func axisCalls(axis, side int) (func(), func(), map[string]func()) {
	x, _, _ := placed[float32](side * side)
	out := make([]float32, side)
	call := func() {
		if err := broadcast.ReduceSum(out, broadcast.Shape{side}, x, broadcast.Shape{side, side}, axis); err != nil {
			panic(err)
		}
	}
	if axis == 1 {
		return call, func() {
			for r := range out {
				var s float32
				for _, v := range x[r*side : (r+1)*side] {
					s += v
				}
				out[r] = s
			}
		}, nil
	}
	return call, func() {
		clear(out)
		for r := range side {
			for c, v := range x[r*side : (r+1)*side] {
				out[c] += v
			}
		}
	}, nil
}

// reportReduce times every -reduce workload: the plain loop, elem under
// each implementation, and the peers, each as ns per element with its
// speedup over the loop.
func reportReduce(w io.Writer, cfg config) {
	fmt.Fprintln(w, "reductions: ns per input element (speedup over the plain Go loop); medians of", cfg.reps, "timings; - where a peer has no such call")
	fmt.Fprintln(w, "  loop: s += a[i], s += a[i]*b[i], m = max(m, a[i]), if a[i] > best {...}; row sums and column sums as nested loops")
	fmt.Fprintln(w, "  gonum: gonum.org/v1/gonum/floats (float64 only); vek: github.com/viterin/vek (vek32 for float32); neither has integer reductions")
	cols := append(append([]string{"loop"}, cfg.impls...), reducePeers...)
	rows := reduceRows(cfg)
	width := len("workload")
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	const cell = 15
	var head strings.Builder
	fmt.Fprintf(&head, "%-*s", width, "workload")
	for _, c := range cols {
		fmt.Fprintf(&head, "  %*s", cell, c)
	}
	fmt.Fprintln(w, head.String())
	defer elem.SetImplementation(elem.Implementation())
	for _, r := range rows {
		call, loop, peers := r.setup()
		runtime.GC()
		base := measure(loop, cfg.minTime, cfg.reps)
		var line strings.Builder
		fmt.Fprintf(&line, "%-*s", width, r.name)
		cellOf := func(t timing) string {
			return fmt.Sprintf("%.4f %5.1fx%s", t.median/float64(r.elems), base.median/t.median, map[bool]string{true: noisyMark, false: " "}[t.noisy()])
		}
		fmt.Fprintf(&line, "  %*s", cell, cellOf(base))
		for _, impl := range cfg.impls {
			if err := elem.SetImplementation(impl); err != nil {
				panic(err) // parseFlags checked availability
			}
			fmt.Fprintf(&line, "  %*s", cell, cellOf(measure(call, cfg.minTime, cfg.reps)))
		}
		for _, p := range reducePeers {
			c := "- "
			if f := peers[p]; f != nil {
				c = cellOf(measure(f, cfg.minTime, cfg.reps))
			}
			fmt.Fprintf(&line, "  %*s", cell, c)
		}
		fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	}
	runtime.KeepAlive(sink)
}
