package main

import (
	"fmt"
	"io"
	"math"
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
	rows = append(rows, axisRows()...)
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

// axisShapes are the float32 layouts the axis reductions run on: a square
// matrix over each axis and xyz points over their short axis.
var axisShapes = []struct {
	shape broadcast.Shape
	axis  int
}{{broadcast.Shape{1024, 1024}, 0}, {broadcast.Shape{1024, 1024}, 1}, {broadcast.Shape{1048576, 3}, 1}}

// axisRows are the rows of the other axis reductions (Max, Mean, ArgMax,
// Var, Std on axisShapes), of Softmax over the last axis of (1024, 1024)
// and (32, 1000), and of CumSum over axis 0 of (1024, 1024), each beside
// the plain loops a user would write (math.Exp for the softmax).
func axisRows() []reduceRow {
	var rows []reduceRow
	add := func(name string, shape broadcast.Shape, axis int, call func(a []float32, l axisLayout) func(), loop func(a []float32, l axisLayout) func()) {
		n := shape[0] * shape[1]
		l := axisLayout{shape: shape, axis: axis, outer: 1, along: shape[axis], inner: 1}
		if axis == 0 {
			l.inner = shape[1]
		} else {
			l.outer = shape[0]
		}
		rows = append(rows, reduceRow{name: fmt.Sprintf("%s axis=%d/float32/%dx%d", name, axis, shape[0], shape[1]), elems: n,
			setup: func() (func(), func(), map[string]func()) {
				a, _, _ := placed[float32](n)
				for i := range a {
					a[i] = a[i]/16 - 3
				}
				return call(a, l), loop(a, l), nil
			}})
	}
	for _, c := range axisShapes {
		add("ReduceMax", c.shape, c.axis, func(a []float32, l axisLayout) func() {
			dst := make([]float32, l.outer*l.inner)
			return func() { must(broadcast.ReduceMax(dst, l.reduced(), a, l.shape, l.axis)) }
		}, func(a []float32, l axisLayout) func() {
			return l.foldLoop(a, func(m, x float32) float32 { return max(m, x) }, nil)
		})
		add("ReduceMean", c.shape, c.axis, func(a []float32, l axisLayout) func() {
			dst := make([]float32, l.outer*l.inner)
			return func() { must(broadcast.ReduceMean(dst, l.reduced(), a, l.shape, l.axis)) }
		}, func(a []float32, l axisLayout) func() {
			return l.foldLoop(a, func(s, x float32) float32 { return s + x }, func(s float32) float32 { return s / float32(l.along) })
		})
		add("ReduceArgMax", c.shape, c.axis, func(a []float32, l axisLayout) func() {
			dst := make([]int, l.outer*l.inner)
			return func() { must(broadcast.ReduceArgMax(dst, l.reduced(), a, l.shape, l.axis)) }
		}, func(a []float32, l axisLayout) func() { return l.argLoop(a) })
		for _, std := range []bool{false, true} {
			name := map[bool]string{false: "ReduceVar", true: "ReduceStd"}[std]
			add(name, c.shape, c.axis, func(a []float32, l axisLayout) func() {
				dst := make([]float32, l.outer*l.inner)
				if std {
					return func() { must(broadcast.ReduceStd(dst, l.reduced(), a, l.shape, l.axis)) }
				}
				return func() { must(broadcast.ReduceVar(dst, l.reduced(), a, l.shape, l.axis)) }
			}, func(a []float32, l axisLayout) func() { return l.varLoop(a, std) })
		}
	}
	for _, shape := range []broadcast.Shape{{1024, 1024}, {32, 1000}} {
		add("Softmax", shape, 1, func(a []float32, l axisLayout) func() {
			dst := make([]float32, len(a))
			return func() { must(broadcast.Softmax(dst, a, l.shape, 1)) }
		}, func(a []float32, l axisLayout) func() {
			dst := make([]float32, len(a))
			return func() {
				for r := range l.outer {
					row, out := a[r*l.along:][:l.along], dst[r*l.along:][:l.along]
					m := row[0]
					for _, x := range row {
						m = max(m, x)
					}
					var s float32
					for i, x := range row {
						out[i] = float32(math.Exp(float64(x - m)))
						s += out[i]
					}
					for i := range out {
						out[i] /= s
					}
				}
			}
		})
	}
	add("CumSum", broadcast.Shape{1024, 1024}, 0, func(a []float32, l axisLayout) func() {
		dst := make([]float32, len(a))
		return func() { must(broadcast.CumSum(dst, a, l.shape, 0)) }
	}, func(a []float32, l axisLayout) func() {
		dst := make([]float32, len(a))
		return func() {
			copy(dst[:l.inner], a[:l.inner])
			for r := 1; r < l.along; r++ {
				prev, row, out := dst[(r-1)*l.inner:][:l.inner], a[r*l.inner:][:l.inner], dst[r*l.inner:][:l.inner]
				for c, x := range row {
					out[c] = prev[c] + x
				}
			}
		}
	})
	return rows
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// axisLayout is a 2-D shape reduced over one axis: outer lines of along
// values inner apart.
type axisLayout struct {
	shape               broadcast.Shape
	axis                int
	outer, along, inner int
}

func (l axisLayout) reduced() broadcast.Shape { return broadcast.Shape{l.outer * l.inner} }

// foldLoop is the plain loop of a fold f along the axis, then done on
// each result (when not nil): row by row over the matrix in memory order.
func (l axisLayout) foldLoop(a []float32, f func(acc, x float32) float32, done func(float32) float32) func() {
	out := make([]float32, l.outer*l.inner)
	return func() {
		for o := range l.outer {
			res := out[o*l.inner:][:l.inner]
			copy(res, a[o*l.along*l.inner:][:l.inner])
			for i := 1; i < l.along; i++ {
				for c, x := range a[(o*l.along+i)*l.inner:][:l.inner] {
					res[c] = f(res[c], x)
				}
			}
			if done != nil {
				for c := range res {
					res[c] = done(res[c])
				}
			}
		}
	}
}

// argLoop is the plain loop of ArgMax along the axis.
func (l axisLayout) argLoop(a []float32) func() {
	best, idx := make([]float32, l.outer*l.inner), make([]int, l.outer*l.inner)
	return func() {
		for o := range l.outer {
			b, k := best[o*l.inner:][:l.inner], idx[o*l.inner:][:l.inner]
			copy(b, a[o*l.along*l.inner:][:l.inner])
			clear(k)
			for i := 1; i < l.along; i++ {
				for c, x := range a[(o*l.along+i)*l.inner:][:l.inner] {
					if x > b[c] {
						b[c], k[c] = x, i
					}
				}
			}
		}
	}
}

// varLoop is the plain two-pass loop of the variance (or standard
// deviation) along the axis.
func (l axisLayout) varLoop(a []float32, std bool) func() {
	m, v := make([]float32, l.outer*l.inner), make([]float32, l.outer*l.inner)
	return func() {
		for o := range l.outer {
			mo, vo := m[o*l.inner:][:l.inner], v[o*l.inner:][:l.inner]
			clear(mo)
			for i := range l.along {
				for c, x := range a[(o*l.along+i)*l.inner:][:l.inner] {
					mo[c] += x
				}
			}
			for c := range mo {
				mo[c] /= float32(l.along)
			}
			clear(vo)
			for i := range l.along {
				for c, x := range a[(o*l.along+i)*l.inner:][:l.inner] {
					d := x - mo[c]
					vo[c] += d * d
				}
			}
			for c := range vo {
				vo[c] /= float32(l.along)
				if std {
					vo[c] = float32(math.Sqrt(float64(vo[c])))
				}
			}
		}
	}
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
