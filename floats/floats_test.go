package floats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// special holds values that the tests mix into random data: signed zeros,
// infinities, NaNs with payloads and signs (a signalling one too),
// subnormals and values near overflow.
var special = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	math.Float64frombits(0xFFF8000000000002), math.Float64frombits(0x7FF0000000000003),
	5e-324, -2.5e-310, math.MaxFloat64, -1e308, 1, -1,
}

// randomData returns n values, a quarter of them special when withSpecial.
func randomData(r *rand.Rand, n int, withSpecial bool) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
		if withSpecial && r.IntN(4) == 0 {
			s[i] = special[r.IntN(len(special))]
		}
	}
	return s
}

// lengths are the slice lengths the tests try: every short one, past
// elem's short loops and pieces, and one long.
func lengths() []int {
	n := make([]int, 0, 80)
	for i := range 71 {
		n = append(n, i)
	}
	return append(n, 511, 512, 513, 1000, 1537)
}

// binaryCase is an elementwise function run on dst (holding d), s and t,
// with its per-element formula, which is gonum's.
type binaryCase struct {
	name string
	run  func(dst, s, t []float64, c float64)
	ref  func(d, s, t, c float64) float64
}

var binaryCases = []binaryCase{
	{"Add", func(dst, s, _ []float64, _ float64) { Add(dst, s) }, func(d, s, _, _ float64) float64 { return s + d }},
	{"AddTo", func(dst, s, t []float64, _ float64) { AddTo(dst, s, t) }, func(_, s, t, _ float64) float64 { return s + t }},
	{"AddConst", func(dst, _, _ []float64, c float64) { AddConst(c, dst) }, func(d, _, _, c float64) float64 { return d + c }},
	{"AddScaled", func(dst, s, _ []float64, c float64) { AddScaled(dst, c, s) }, func(d, s, _, c float64) float64 { return float64(s*c) + d }},
	{"AddScaledTo", func(dst, s, t []float64, c float64) { AddScaledTo(dst, t, c, s) }, func(_, s, t, c float64) float64 { return float64(s*c) + t }},
	{"Sub", func(dst, s, _ []float64, _ float64) { Sub(dst, s) }, func(d, s, _, _ float64) float64 { return d - s }},
	{"SubTo", func(dst, s, t []float64, _ float64) { SubTo(dst, s, t) }, func(_, s, t, _ float64) float64 { return s - t }},
	{"Mul", func(dst, s, _ []float64, _ float64) { Mul(dst, s) }, func(d, s, _, _ float64) float64 { return d * s }},
	{"MulTo", func(dst, s, t []float64, _ float64) { MulTo(dst, s, t) }, func(_, s, t, _ float64) float64 { return t * s }},
	{"Div", func(dst, s, _ []float64, _ float64) { Div(dst, s) }, func(d, s, _, _ float64) float64 { return d / s }},
	{"DivTo", func(dst, s, t []float64, _ float64) { DivTo(dst, s, t) }, func(_, s, t, _ float64) float64 { return s / t }},
	{"Scale", func(dst, _, _ []float64, c float64) { Scale(c, dst) }, func(d, _, _, c float64) float64 { return d * c }},
	{"ScaleTo", func(dst, s, _ []float64, c float64) { ScaleTo(dst, c, s) }, func(_, s, _, c float64) float64 { return s * c }},
}

// sameValue reports whether x and y are the same bits, or both NaN: the
// plain loop's NaN payloads are the compiler's choice of operand order.
func sameValue(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
}

func TestElementwiseMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range binaryCases {
		t.Run(c.name, func(t *testing.T) {
			for _, n := range lengths() {
				off := r.IntN(4) // unaligned starts
				d, s, u := randomData(r, n+off, true)[off:], randomData(r, n, true), randomData(r, n, true)
				alpha := []float64{r.NormFloat64(), -1, 0, math.Inf(1), math.NaN()}[r.IntN(5)]
				dst := slices.Clone(d)
				c.run(dst, s, u, alpha)
				for i := range dst {
					if want := c.ref(d[i], s[i], u[i], alpha); !sameValue(dst[i], want) {
						require.Failf(t, "wrong element", "n=%d i=%d d=%v s=%v t=%v alpha=%v: got %v (%#x), want %v (%#x)",
							n, i, d[i], s[i], u[i], alpha, dst[i], math.Float64bits(dst[i]), want, math.Float64bits(want))
					}
				}
			}
		})
	}
}

// AddScaled rounds the product and then the sum: 1 + 2^-30 squared is
// 1 + 2^-29 + 2^-60, whose last term a product rounded on its own loses
// and a fused multiply-add keeps.
func TestAddScaledRoundsTwice(t *testing.T) {
	x := 1 + 0x1p-30
	for _, n := range []int{1, 9, 100, 1000} {
		dst, s := make([]float64, n), make([]float64, n)
		for i := range dst {
			dst[i], s[i] = -1, x
		}
		AddScaled(dst, x, s)
		want := float64(x*x) - 1
		require.NotEqual(t, math.FMA(x, x, -1), want)
		for i := range dst {
			require.Equal(t, want, dst[i], "n=%d i=%d", n, i)
		}
		AddScaledTo(dst, dst, x, s)
		require.Equal(t, float64(x*x)+want, dst[n-1], "n=%d", n)
	}
}

// A dst that partly overlaps an input is computed element by element in
// index order, as gonum's pure-Go loops do, where elem would panic.
func TestPartialOverlapInIndexOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range binaryCases {
		for _, n := range []int{2, 9, 100, 1000} {
			for _, shift := range []int{-1, 1, 3} {
				x := randomData(r, n+3, false)
				lo, hi := max(0, shift), max(0, -shift)
				want := slices.Clone(x)
				dstW, inW := want[lo:lo+n], want[hi:hi+n]
				for i := range dstW {
					dstW[i] = c.ref(dstW[i], inW[i], inW[i], 0.5)
				}
				c.run(x[lo:lo+n], x[hi:hi+n], x[hi:hi+n], 0.5)
				require.Equal(t, want, x, "%s n=%d shift=%d", c.name, n, shift)
			}
		}
	}
	for _, n := range []int{2, 100} {
		x := randomData(r, n+1, false)
		want := slices.Clone(x)
		// dst[0] = s[0] is x[1] = x[0]; then dst[i] = dst[i-1] + s[i],
		// where s[i] is dst[i-1] itself.
		want[1] = x[0]
		for i := 1; i < n; i++ {
			want[i+1] = want[i] + want[i]
		}
		CumSum(x[1:], x[:n])
		require.Equal(t, want, x, "CumSum n=%d", n)
	}
}

func TestPanics(t *testing.T) {
	a, b := make([]float64, 3), make([]float64, 4)
	const (
		length = "floats: slice lengths do not match"
		dstLen = "floats: destination slice length does not match input"
		empty  = "floats: zero length slice"
		short  = "floats: slice length less than 2"
	)
	for _, c := range []struct {
		name, want string
		f          func()
	}{
		{"Add", dstLen, func() { Add(a, b) }},
		{"AddTo s t", length, func() { AddTo(a, a, b) }},
		{"AddTo dst", dstLen, func() { AddTo(a, b, b) }},
		{"AddScaled", length, func() { AddScaled(a, 1, b) }},
		{"AddScaledTo s y", length, func() { AddScaledTo(a, a, 1, b) }},
		{"AddScaledTo dst", dstLen, func() { AddScaledTo(a, b, 1, b) }},
		{"Sub", length, func() { Sub(a, b) }},
		{"SubTo s t", length, func() { SubTo(b, a, b) }},
		{"SubTo dst", dstLen, func() { SubTo(a, b, b) }},
		{"Mul", length, func() { Mul(a, b) }},
		{"MulTo", length, func() { MulTo(a, b, a) }},
		{"MulTo dst", dstLen, func() { MulTo(b, a, a) }},
		{"Div", length, func() { Div(a, b) }},
		{"DivTo", length, func() { DivTo(a, a, b) }},
		{"DivTo dst", dstLen, func() { DivTo(b, a, a) }},
		{"ScaleTo", dstLen, func() { ScaleTo(a, 1, b) }},
		{"Dot", length, func() { Dot(a, b) }},
		{"Distance", length, func() { Distance(a, b, 2) }},
		{"CumSum", dstLen, func() { CumSum(a, b) }},
		{"CumProd", dstLen, func() { CumProd(a, b) }},
		{"Argsort", dstLen, func() { Argsort(a, make([]int, 2)) }},
		{"ArgsortStable", dstLen, func() { ArgsortStable(a, make([]int, 2)) }},
		{"Max", empty, func() { Max(nil) }},
		{"MaxIdx", empty, func() { MaxIdx(nil) }},
		{"Min", empty, func() { Min(nil) }},
		{"MinIdx", empty, func() { MinIdx(nil) }},
		{"LogSumExp", empty, func() { LogSumExp(nil) }},
		{"NearestIdx", empty, func() { NearestIdx(nil, 1) }},
		{"NearestIdxForSpan", short, func() { NearestIdxForSpan(1, 0, 1, 0) }},
		{"Span", short, func() { Span(a[:1], 0, 1) }},
		{"LogSpan", short, func() { LogSpan(nil, 1, 2) }},
		{"Within short", short, func() { Within(a[:1], 0) }},
		{"Within unsorted", "floats: input slice not sorted", func() { Within([]float64{2, 1}, 0) }},
	} {
		assert.PanicsWithValue(t, c.want, c.f, c.name)
	}
}

// extremeIdx is gonum's MaxIdx (better is >) or MinIdx (<) loop.
func extremeIdx(s []float64, better func(v, m float64) bool) int {
	m, ind := math.NaN(), 0
	for i, v := range s {
		if !math.IsNaN(v) && (better(v, m) || math.IsNaN(m)) {
			m, ind = v, i
		}
	}
	return ind
}

func TestExtremes(t *testing.T) {
	nan, inf, negZero := math.NaN(), math.Inf(1), math.Copysign(0, -1)
	cases := [][]float64{
		{nan, 1, nan, 3, 2}, {nan, nan}, {negZero, 0, -1}, {0, negZero, 1},
		{1, inf, -inf, inf, -inf}, {2, 5, 5, 2}, {nan, negZero, 0, nan},
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range lengths()[1:] {
		s := randomData(r, n, true)
		for i := range s {
			if r.IntN(3) == 0 {
				s[i] = []float64{0, negZero, 1e300, -1e300}[r.IntN(4)]
			}
		}
		cases = append(cases, s)
	}
	greater := func(v, m float64) bool { return v > m }
	less := func(v, m float64) bool { return v < m }
	for _, s := range cases {
		maxIdx, minIdx := extremeIdx(s, greater), extremeIdx(s, less)
		require.Equal(t, maxIdx, MaxIdx(s), "MaxIdx %v", s)
		require.Equal(t, minIdx, MinIdx(s), "MinIdx %v", s)
		require.Equal(t, math.Float64bits(s[maxIdx]), math.Float64bits(Max(s)), "Max %v", s)
		require.Equal(t, math.Float64bits(s[minIdx]), math.Float64bits(Min(s)), "Min %v", s)
		require.Equal(t, slices.ContainsFunc(s, math.IsNaN), HasNaN(s), "HasNaN %v", s)
	}
	require.False(t, HasNaN(nil))
}
