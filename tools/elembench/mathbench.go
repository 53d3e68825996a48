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

// mathLoops are the plain Go loops that -math's calls replace: package
// math's function per element (sigmoid written out, as users write it).
var mathLoops = map[string]func(float64) float64{
	"exp": math.Exp, "exp2": math.Exp2, "expm1": math.Expm1,
	"log": math.Log, "log2": math.Log2, "log10": math.Log10, "log1p": math.Log1p,
	"sigmoid": func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	"tanh":    math.Tanh,
	"erf":     math.Erf,
}

// mathArgs are the arguments -math times on: the range where the function
// is used (logarithms of positive values, exp over a softmax's range).
func mathArgs(name string, i int) float64 {
	u := float64(i%4000) / 4000
	switch {
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
		loop, ok := mathLoops[op.String()]
		if !ok {
			continue
		}
		mathRows(tw, cfg, op, loop, "float32", mathTime[float32], mathULP32)
		mathRows(tw, cfg, op, loop, "float64", mathTime[float64], mathULP64)
	}
	for _, op := range elem.Ops() {
		if loop, ok := mathLoops2[op.String()]; ok {
			mathRows2(tw, cfg, op, loop)
		}
	}
	tw.Flush()
}

// mathLoops2 are the plain loops of the math functions of two arguments.
var mathLoops2 = map[string]func(x, y float64) float64{"hypot": math.Hypot, "atan2": math.Atan2}

// mathRows2 is mathRows for a function of two arguments: timed on pairs
// in (-10, 10), its error measured on 4000 random pairs of bit patterns and
// of values in that range, for both types.
func mathRows2(w io.Writer, cfg config, op elem.Op, loop func(x, y float64) float64) {
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
		xs = append(xs, mathArgs("", i*7919), math.Float64frombits(rng.Uint64()))
		ys = append(ys, mathArgs("", i*104729), math.Float64frombits(rng.Uint64()))
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

func mathTime2[T elem.Float](cfg config, op elem.Op, loop func(x, y float64) float64) (elemNs, loopNs float64) {
	a, b, d := make([]T, mathN), make([]T, mathN), make([]T, mathN)
	for i := range a {
		a[i], b[i] = T(mathArgs("", i*7919)), T(mathArgs("", i*104729))
	}
	e := measure(func() { elem.Apply(op, d, a, b) }, cfg.minTime, cfg.reps)
	l := measure(func() {
		for i := range d {
			d[i] = T(loop(float64(a[i]), float64(b[i])))
		}
	}, cfg.minTime, cfg.reps)
	return e.median, l.median
}

func mathRows(w io.Writer, cfg config, op elem.UnaryOp, loop func(float64) float64, typ string,
	time func(cfg config, op elem.UnaryOp, loop func(float64) float64) (elemNs, loopNs float64),
	ulp func(op elem.UnaryOp) float64) {
	for _, impl := range kernel.Available() {
		kernel.Use(impl, "elembench")
		e, l := time(cfg, op, loop)
		fmt.Fprintf(w, "%s\t%s\t%s\t%.3f\t%.1f\t%.3f\t\n", op, typ, impl, e/mathN, l/e, ulp(op))
	}
}

// mathTime times elem's call and the loop on mathN arguments of T.
func mathTime[T elem.Float](cfg config, op elem.UnaryOp, loop func(float64) float64) (elemNs, loopNs float64) {
	a, d := make([]T, mathN), make([]T, mathN)
	for i := range a {
		a[i] = T(mathArgs(op.String(), i*7919))
	}
	e := measure(func() { elem.ApplyUnary(op, d, a) }, cfg.minTime, cfg.reps)
	l := measure(func() {
		for i, x := range a {
			d[i] = T(loop(float64(x)))
		}
	}, cfg.minTime, cfg.reps)
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
