package floatsgonum

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gf "gonum.org/v1/gonum/floats"

	ef "github.com/simdkit/elem/floats"
)

// benchData is the input of one benchmark: values in [0.995, 1.005), so
// that a call repeated in place neither overflows nor reaches subnormals.
type benchData struct {
	dst, s, t, ones, sorted, scratch []float64
	inds                             []int
}

func newBenchData(n int) *benchData {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	values := func() []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1 + (r.Float64()-0.5)/100
		}
		return v
	}
	d := &benchData{dst: values(), s: values(), t: values(), ones: make([]float64, n), scratch: make([]float64, n), inds: make([]int, n)}
	for i := range d.ones {
		d.ones[i] = 1
	}
	d.sorted = slices.Sorted(slices.Values(d.s))
	return d
}

// benchCall is one function of both packages as a benchmark body.
type benchCall struct {
	name        string
	gonum, ours func(d *benchData)
}

var (
	above1      = func(v float64) bool { return v > 1 }
	closeEnough = func(x, y float64) bool { return x-y < 1e-12 && y-x < 1e-12 }
	// The sinks keep results alive without boxing them.
	sinkF float64
	sinkI int
	sinkB bool
)

// benchCalls has every exported function of gonum's floats.
var benchCalls = []benchCall{
	{"Add", func(d *benchData) { gf.Add(d.dst, d.s) }, func(d *benchData) { ef.Add(d.dst, d.s) }},
	{"AddTo", func(d *benchData) { gf.AddTo(d.dst, d.s, d.t) }, func(d *benchData) { ef.AddTo(d.dst, d.s, d.t) }},
	{"AddConst", func(d *benchData) { gf.AddConst(1, d.dst) }, func(d *benchData) { ef.AddConst(1, d.dst) }},
	{"AddScaled", func(d *benchData) { gf.AddScaled(d.dst, 0.5, d.s) }, func(d *benchData) { ef.AddScaled(d.dst, 0.5, d.s) }},
	{"AddScaledTo", func(d *benchData) { gf.AddScaledTo(d.dst, d.t, 0.5, d.s) }, func(d *benchData) { ef.AddScaledTo(d.dst, d.t, 0.5, d.s) }},
	{"Sub", func(d *benchData) { gf.Sub(d.dst, d.s) }, func(d *benchData) { ef.Sub(d.dst, d.s) }},
	{"SubTo", func(d *benchData) { gf.SubTo(d.dst, d.s, d.t) }, func(d *benchData) { ef.SubTo(d.dst, d.s, d.t) }},
	{"Mul", func(d *benchData) { gf.Mul(d.dst, d.ones) }, func(d *benchData) { ef.Mul(d.dst, d.ones) }},
	{"MulTo", func(d *benchData) { gf.MulTo(d.dst, d.s, d.t) }, func(d *benchData) { ef.MulTo(d.dst, d.s, d.t) }},
	{"Div", func(d *benchData) { gf.Div(d.dst, d.ones) }, func(d *benchData) { ef.Div(d.dst, d.ones) }},
	{"DivTo", func(d *benchData) { gf.DivTo(d.dst, d.s, d.t) }, func(d *benchData) { ef.DivTo(d.dst, d.s, d.t) }},
	{"Scale", func(d *benchData) { gf.Scale(1, d.dst) }, func(d *benchData) { ef.Scale(1, d.dst) }},
	{"ScaleTo", func(d *benchData) { gf.ScaleTo(d.dst, 1.5, d.s) }, func(d *benchData) { ef.ScaleTo(d.dst, 1.5, d.s) }},
	{"Sum", func(d *benchData) { sinkF = gf.Sum(d.s) }, func(d *benchData) { sinkF = ef.Sum(d.s) }},
	{"SumCompensated", func(d *benchData) { sinkF = gf.SumCompensated(d.s) }, func(d *benchData) { sinkF = ef.SumCompensated(d.s) }},
	{"Dot", func(d *benchData) { sinkF = gf.Dot(d.s, d.t) }, func(d *benchData) { sinkF = ef.Dot(d.s, d.t) }},
	{"Prod", func(d *benchData) { sinkF = gf.Prod(d.s) }, func(d *benchData) { sinkF = ef.Prod(d.s) }},
	{"CumSum", func(d *benchData) { gf.CumSum(d.dst, d.s) }, func(d *benchData) { ef.CumSum(d.dst, d.s) }},
	{"CumProd", func(d *benchData) { gf.CumProd(d.dst, d.s) }, func(d *benchData) { ef.CumProd(d.dst, d.s) }},
	{"Norm/L=1", func(d *benchData) { sinkF = gf.Norm(d.s, 1) }, func(d *benchData) { sinkF = ef.Norm(d.s, 1) }},
	{"Norm/L=2", func(d *benchData) { sinkF = gf.Norm(d.s, 2) }, func(d *benchData) { sinkF = ef.Norm(d.s, 2) }},
	{"Norm/L=Inf", func(d *benchData) { sinkF = gf.Norm(d.s, inf) }, func(d *benchData) { sinkF = ef.Norm(d.s, inf) }},
	{"Norm/L=3", func(d *benchData) { sinkF = gf.Norm(d.s, 3) }, func(d *benchData) { sinkF = ef.Norm(d.s, 3) }},
	{"Distance/L=1", func(d *benchData) { sinkF = gf.Distance(d.s, d.t, 1) }, func(d *benchData) { sinkF = ef.Distance(d.s, d.t, 1) }},
	{"Distance/L=2", func(d *benchData) { sinkF = gf.Distance(d.s, d.t, 2) }, func(d *benchData) { sinkF = ef.Distance(d.s, d.t, 2) }},
	{"Distance/L=Inf", func(d *benchData) { sinkF = gf.Distance(d.s, d.t, inf) }, func(d *benchData) { sinkF = ef.Distance(d.s, d.t, inf) }},
	{"Distance/L=3", func(d *benchData) { sinkF = gf.Distance(d.s, d.t, 3) }, func(d *benchData) { sinkF = ef.Distance(d.s, d.t, 3) }},
	{"LogSumExp", func(d *benchData) { sinkF = gf.LogSumExp(d.s) }, func(d *benchData) { sinkF = ef.LogSumExp(d.s) }},
	{"Max", func(d *benchData) { sinkF = gf.Max(d.s) }, func(d *benchData) { sinkF = ef.Max(d.s) }},
	{"MaxIdx", func(d *benchData) { sinkI = gf.MaxIdx(d.s) }, func(d *benchData) { sinkI = ef.MaxIdx(d.s) }},
	{"Min", func(d *benchData) { sinkF = gf.Min(d.s) }, func(d *benchData) { sinkF = ef.Min(d.s) }},
	{"MinIdx", func(d *benchData) { sinkI = gf.MinIdx(d.s) }, func(d *benchData) { sinkI = ef.MinIdx(d.s) }},
	{"HasNaN", func(d *benchData) { sinkB = gf.HasNaN(d.s) }, func(d *benchData) { sinkB = ef.HasNaN(d.s) }},
	{"NearestIdx", func(d *benchData) { sinkI = gf.NearestIdx(d.s, 1.001) }, func(d *benchData) { sinkI = ef.NearestIdx(d.s, 1.001) }},
	{"NearestIdxForSpan", func(d *benchData) { sinkI = gf.NearestIdxForSpan(len(d.s), 0, 1, 0.3) }, func(d *benchData) { sinkI = ef.NearestIdxForSpan(len(d.s), 0, 1, 0.3) }},
	{"Within", func(d *benchData) { sinkI = gf.Within(d.sorted, 1.004) }, func(d *benchData) { sinkI = ef.Within(d.sorted, 1.004) }},
	{"Count", func(d *benchData) { sinkI = gf.Count(above1, d.s) }, func(d *benchData) { sinkI = ef.Count(above1, d.s) }},
	{"Find", func(d *benchData) { d.inds, _ = gf.Find(d.inds, above1, d.s, -1) }, func(d *benchData) { d.inds, _ = ef.Find(d.inds, above1, d.s, -1) }},
	{"Equal", func(d *benchData) { sinkB = gf.Equal(d.s, d.sorted) }, func(d *benchData) { sinkB = ef.Equal(d.s, d.sorted) }},
	{"EqualApprox", func(d *benchData) { sinkB = gf.EqualApprox(d.s, d.s, 1e-12) }, func(d *benchData) { sinkB = ef.EqualApprox(d.s, d.s, 1e-12) }},
	{"EqualFunc", func(d *benchData) { sinkB = gf.EqualFunc(d.s, d.s, closeEnough) }, func(d *benchData) { sinkB = ef.EqualFunc(d.s, d.s, closeEnough) }},
	{"EqualLengths", func(d *benchData) { sinkB = gf.EqualLengths(d.s, d.t, d.dst) }, func(d *benchData) { sinkB = ef.EqualLengths(d.s, d.t, d.dst) }},
	{"Same", func(d *benchData) { sinkB = gf.Same(d.s, d.s) }, func(d *benchData) { sinkB = ef.Same(d.s, d.s) }},
	{"Span", func(d *benchData) { gf.Span(d.dst, 0, 1) }, func(d *benchData) { ef.Span(d.dst, 0, 1) }},
	{"LogSpan", func(d *benchData) { gf.LogSpan(d.dst, 1, 2) }, func(d *benchData) { ef.LogSpan(d.dst, 1, 2) }},
	//lint:ignore SA1019 Reverse is deprecated in gonum, and tested as part of its API.
	{"Reverse", func(d *benchData) { gf.Reverse(d.dst) }, func(d *benchData) { ef.Reverse(d.dst) }},
	// The sorts sort a fresh copy each time, the copy's cost in both.
	{"Argsort", func(d *benchData) { copy(d.scratch, d.s); gf.Argsort(d.scratch, d.inds[:len(d.s)]) },
		func(d *benchData) { copy(d.scratch, d.s); ef.Argsort(d.scratch, d.inds[:len(d.s)]) }},
	{"ArgsortStable", func(d *benchData) { copy(d.scratch, d.s); gf.ArgsortStable(d.scratch, d.inds[:len(d.s)]) },
		func(d *benchData) { copy(d.scratch, d.s); ef.ArgsortStable(d.scratch, d.inds[:len(d.s)]) }},
}

var inf = math.Inf(1)

// BenchmarkFloats runs every function of both packages at n = 1000 and
// 16000, gonum's and elem's one after the other: Floats/Add/n=1000/elem.
func BenchmarkFloats(b *testing.B) {
	for _, c := range benchCalls {
		for _, n := range []int{1000, 16000} {
			d := newBenchData(n)
			for _, impl := range []struct {
				name string
				run  func(*benchData)
			}{{"gonum", c.gonum}, {"elem", c.ours}} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", c.name, n, impl.name), func(b *testing.B) {
					for b.Loop() {
						impl.run(d)
					}
				})
			}
		}
	}
}
