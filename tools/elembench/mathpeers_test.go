package main

import (
	"math"
	"testing"

	"github.com/viterin/vek/vek32"

	"github.com/simdkit/elem"
)

// BenchmarkMathPeers times vek32's vector math beside elem's call and the
// plain math loop on the arguments of elembench -math (n = 16000), in one
// process: go test -run '^$' -bench MathPeers -count 6 in tools/elembench.
func BenchmarkMathPeers(b *testing.B) {
	type fn struct {
		name string
		vek  func(d, a []float32)
		elem func(d, a []float32)
	}
	for _, f := range []fn{
		{"exp", func(d, a []float32) { vek32.Exp_Into(d, a) }, func(d, a []float32) { elem.Exp(d, a) }},
		{"log", func(d, a []float32) { vek32.Log_Into(d, a) }, func(d, a []float32) { elem.Log(d, a) }},
		{"log2", func(d, a []float32) { vek32.Log2_Into(d, a) }, func(d, a []float32) { elem.Log2(d, a) }},
		{"log10", func(d, a []float32) { vek32.Log10_Into(d, a) }, func(d, a []float32) { elem.Log10(d, a) }},
		{"sin", func(d, a []float32) { vek32.Sin_Into(d, a) }, func(d, a []float32) { elem.Sin(d, a) }},
		{"cos", func(d, a []float32) { vek32.Cos_Into(d, a) }, func(d, a []float32) { elem.Cos(d, a) }},
	} {
		a, d := make([]float32, mathN), make([]float32, mathN)
		for i := range a {
			a[i] = float32(mathArgs(f.name, i*7919))
		}
		loop := mathLoop[float32](f.name)
		for _, run := range []struct {
			who string
			f   func(d, a []float32)
		}{{"elem", f.elem}, {"vek32", f.vek}, {"loop", loop}} {
			b.Run(f.name+"/"+run.who, func(b *testing.B) {
				for b.Loop() {
					run.f(d, a)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/mathN, "ns/elem")
			})
		}
		// vek32's largest error in ulps over every 4099th float32 (where
		// the exact value is a normal float32), beside elem's.
		var xs []float32
		for bits := uint64(0); bits < 1<<32; bits += 4099 {
			x := math.Float32frombits(uint32(bits))
			if x == x && !math.IsInf(float64(x), 0) && (f.name[:3] != "log" || x > 0) && (f.name[:3] != "sin" && f.name[:3] != "cos" || math.Abs(float64(x)) < 1e4) {
				xs = append(xs, x)
			}
		}
		ys, zs := make([]float32, len(xs)), make([]float32, len(xs))
		f.vek(ys, xs)
		f.elem(zs, xs)
		ref := mathRef64(f.name)
		worstV, worstE := 0.0, 0.0
		for i, x := range xs {
			r := ref(float64(x))
			if math.Abs(r) < 0x1p-126 || math.Abs(r) > math.MaxFloat32 {
				continue
			}
			worstV, worstE = math.Max(worstV, ulpOf(ys[i], r)), math.Max(worstE, ulpOf(zs[i], r))
		}
		b.Logf("%s float32: max ulp vek32 %.3g, elem %.3g", f.name, worstV, worstE)
	}
}

func mathRef64(name string) func(float64) float64 {
	return map[string]func(float64) float64{"exp": math.Exp, "log": math.Log, "log2": math.Log2, "log10": math.Log10,
		"sin": math.Sin, "cos": math.Cos}[name]
}

// ulpOf is got's distance from ref in float32 ulps of ref.
func ulpOf(got float32, ref float64) float64 {
	if got != got {
		return math.Inf(1)
	}
	_, e := math.Frexp(ref)
	return math.Abs(float64(got)-ref) / math.Ldexp(1, max(e-24, -149))
}
