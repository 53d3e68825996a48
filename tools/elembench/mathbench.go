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
	tw.Flush()
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
