package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/mathref"
)

// mathN is the length of -math's calls.
const mathN = 16000

// mathLoop is the plain Go loop that -math's call of op name replaces:
// package math's function per element (sigmoid written out, as users
// write it), called directly, as a user's loop calls it (through a
// function value, math.Exp costs three times as much here), or nil.
func mathLoop[T elem.Float](name string) func(d, a []T) {
	var f func(x float64) float64
	switch name {
	case "exp":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Exp(float64(x)))
			}
		}
	case "log":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Log(float64(x)))
			}
		}
	case "exp2":
		f = math.Exp2
	case "expm1":
		f = math.Expm1
	case "log2":
		f = math.Log2
	case "log10":
		f = math.Log10
	case "log1p":
		f = math.Log1p
	case "tanh":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Tanh(float64(x)))
			}
		}
	case "sigmoid":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(1 / (1 + math.Exp(-float64(x))))
			}
		}
	case "erf":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Erf(float64(x)))
			}
		}
	case "sin":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Sin(float64(x)))
			}
		}
	case "cos":
		return func(d, a []T) {
			for i, x := range a {
				d[i] = T(math.Cos(float64(x)))
			}
		}
	default:
		return nil
	}
	// The rest have no assembly in package math, so that a call through
	// f costs what a direct one does.
	return func(d, a []T) {
		for i, x := range a {
			d[i] = T(f(float64(x)))
		}
	}
}

// mathArgs are the arguments -math times on: the range where the function
// is used (logarithms of positive values, exp over a softmax's range,
// sin and cos over (-100, 100), the base of pow over (0, 10)); an argument of
// a function of two is named by the function and x or y.
func mathArgs(name string, i int) float64 {
	u := float64(i%4000) / 4000
	switch {
	case name == "sin" || name == "cos":
		return -100 + 200*u
	case name == "powx":
		return 1e-2 + 10*u
	case strings.HasPrefix(name, "log1p"):
		return -0.9 + 100*u
	case strings.HasPrefix(name, "log"):
		return 1e-3 + 100*u
	}
	return -10 + 20*u
}

// reportMath prints, for every math op, type and implementation, the time
// per element of elem's call on mathN values, the speedup over the plain
// math loop, and the largest error in ulps over a sample: float32 on every
// 4099th bit pattern (a million arguments) against float64 math, float64
// on 2000 of the timed arguments and 2000 random bit patterns against
// math/big (internal/mathref).
func reportMath(w io.Writer, cfg config) {
	fmt.Fprintf(w, "math functions: n = %d, one thread, ns per element (median of %d); x loop = the math loop's time over elem's;\n", mathN, cfg.reps)
	fmt.Fprintf(w, "max ulp = the largest error from the exact value over a sample (float32: every 4099th bit pattern; float64: 4000 arguments)\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "function\ttype\timpl\tns/elem\tx loop\tmax ulp\t")
	restore := kernel.Current()
	defer kernel.Use(restore, "elembench")
	for _, op := range elem.UnaryOps() {
		if mathLoop[float32](op.String()) == nil || cfg.mathOps != nil && !cfg.mathOps[op.String()] {
			continue
		}
		mathRows(tw, cfg, op, "float32", mathTime[float32], mathULP32)
		mathRows(tw, cfg, op, "float64", mathTime[float64], mathULP64)
	}
	for _, op := range elem.Ops() {
		if loop, ok := mathLoops2[op.String()]; ok && (cfg.mathOps == nil || cfg.mathOps[op.String()]) {
			mathRows2(tw, cfg, op, loop)
		}
	}
	tw.Flush()
}

// mathLoops2 are the plain loops of the math functions of two arguments,
// each calling package math directly.
var mathLoops2 = map[string]func(d, a, b []float64){
	"hypot": func(d, a, b []float64) {
		for i := range d {
			d[i] = math.Hypot(a[i], b[i])
		}
	},
	"atan2": func(d, a, b []float64) {
		for i := range d {
			d[i] = math.Atan2(a[i], b[i])
		}
	},
	"pow": func(d, a, b []float64) {
		for i := range d {
			d[i] = math.Pow(a[i], b[i])
		}
	},
	"expsub": func(d, a, b []float64) {
		for i := range d {
			d[i] = math.Exp(a[i] - b[i])
		}
	},
}

// mathRows2 is mathRows for a function of two arguments: timed on pairs
// in (-10, 10), its error measured on 4000 random pairs of bit patterns and
// of values in that range, for both types.
func mathRows2(w io.Writer, cfg config, op elem.Op, loop func(d, a, b []float64)) {
	ref := mathref.Funcs2[op.String()]
	rows := func(typ string, time func() (float64, float64), ulp func() float64) {
		for _, impl := range kernel.Available() {
			kernel.Use(impl, "elembench")
			e, l := time()
			fmt.Fprintf(w, "%s\t%s\t%s\t%.3f\t%.1f\t%.3f\t\n", op, typ, impl, e/mathN, l/e, ulp())
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var xs, ys []float64
	for i := range 2000 {
		xs = append(xs, mathArgs(op.String()+"x", i*7919), math.Float64frombits(rng.Uint64()))
		ys = append(ys, mathArgs(op.String()+"y", i*104729), math.Float64frombits(rng.Uint64()))
	}
	rows("float32", func() (float64, float64) { return mathTime2[float32](cfg, op, loop) }, func() float64 {
		a, b, d := make([]float32, len(xs)), make([]float32, len(xs)), make([]float32, len(xs))
		for i := range xs {
			a[i], b[i] = float32(xs[i]), float32(ys[i])
		}
		elem.Apply(op, d, a, b)
		worst := 0.0
		for i := range d {
			worst = max(worst, mathref.ULP32(d[i], ref.Ref32(float64(a[i]), float64(b[i]))))
		}
		return worst
	})
	rows("float64", func() (float64, float64) { return mathTime2[float64](cfg, op, loop) }, func() float64 {
		d := make([]float64, len(xs))
		elem.Apply(op, d, xs, ys)
		worst := 0.0
		for i := range d {
			worst = max(worst, mathref.ULP64(d[i], ref.Ref64(xs[i], ys[i])))
		}
		return worst
	})
}

func mathTime2[T elem.Float](cfg config, op elem.Op, loop func(d, a, b []float64)) (elemNs, loopNs float64) {
	a, b, d := make([]T, mathN), make([]T, mathN), make([]T, mathN)
	a64, b64, d64 := make([]float64, mathN), make([]float64, mathN), make([]float64, mathN)
	for i := range a {
		a64[i], b64[i] = mathArgs(op.String()+"x", i*7919), mathArgs(op.String()+"y", i*104729)
		a[i], b[i] = T(a64[i]), T(b64[i])
	}
	e := measure(func() { elem.Apply(op, d, a, b) }, cfg.minTime, cfg.reps)
	// The loop in float64, as Go's math has it (a float32 loop converts on
	// top of the same calls).
	l := measure(func() { loop(d64, a64, b64) }, cfg.minTime, cfg.reps)
	return e.median, l.median
}

func mathRows(w io.Writer, cfg config, op elem.UnaryOp, typ string,
	time func(cfg config, op elem.UnaryOp) (elemNs, loopNs float64), ulp func(op elem.UnaryOp) float64) {
	for _, impl := range kernel.Available() {
		kernel.Use(impl, "elembench")
		e, l := time(cfg, op)
		fmt.Fprintf(w, "%s\t%s\t%s\t%.3f\t%.1f\t%.3f\t\n", op, typ, impl, e/mathN, l/e, ulp(op))
	}
}

// mathTime times elem's call and the loop on mathN arguments of T.
func mathTime[T elem.Float](cfg config, op elem.UnaryOp) (elemNs, loopNs float64) {
	a, d := make([]T, mathN), make([]T, mathN)
	for i := range a {
		a[i] = T(mathArgs(op.String(), i*7919))
	}
	loop := mathLoop[T](op.String())
	e := measure(func() { elem.ApplyUnary(op, d, a) }, cfg.minTime, cfg.reps)
	l := measure(func() { loop(d, a) }, cfg.minTime, cfg.reps)
	return e.median, l.median
}

func mathULP32(op elem.UnaryOp) float64 {
	const stride = 4099
	var a []float32
	for b := uint64(0); b < 1<<32; b += stride {
		a = append(a, math.Float32frombits(uint32(b)))
	}
	d := make([]float32, len(a))
	elem.ApplyUnary(op, d, a)
	ref := mathref.Funcs[op.String()].Ref32
	worst := 0.0
	for i, x := range a {
		if x != x {
			continue
		}
		worst = max(worst, mathref.ULP32(d[i], ref(float64(x))))
	}
	return worst
}

func mathULP64(op elem.UnaryOp) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, 0, 4000)
	for i := range 2000 {
		a = append(a, mathArgs(op.String(), i*7919), math.Float64frombits(rng.Uint64()))
	}
	d := make([]float64, len(a))
	elem.ApplyUnary(op, d, a)
	ref := mathref.Funcs[op.String()].Ref64
	worst := 0.0
	for i, x := range a {
		if x != x || math.IsInf(x, 0) {
			continue
		}
		worst = max(worst, mathref.ULP64(d[i], ref(x)))
	}
	return worst
}
