package floatsgonum

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	gf "gonum.org/v1/gonum/floats"

	ef "github.com/simdkit/elem/floats"
)

// call runs one function of either package on dst, s and t with the
// scalar c, and returns the slice it wrote.
type call func(dst, s, t []float64, c float64) []float64

// pair is one function in both packages.
type pair struct {
	name        string
	gonum, ours call
}

// elementwise are the functions whose results must have gonum's bits.
var elementwise = []pair{
	{"Add", func(d, s, _ []float64, _ float64) []float64 { gf.Add(d, s); return d },
		func(d, s, _ []float64, _ float64) []float64 { ef.Add(d, s); return d }},
	{"AddTo", func(d, s, t []float64, _ float64) []float64 { return gf.AddTo(d, s, t) },
		func(d, s, t []float64, _ float64) []float64 { return ef.AddTo(d, s, t) }},
	{"AddConst", func(d, _, _ []float64, c float64) []float64 { gf.AddConst(c, d); return d },
		func(d, _, _ []float64, c float64) []float64 { ef.AddConst(c, d); return d }},
	{"AddScaled", func(d, s, _ []float64, c float64) []float64 { gf.AddScaled(d, c, s); return d },
		func(d, s, _ []float64, c float64) []float64 { ef.AddScaled(d, c, s); return d }},
	{"AddScaledTo", func(d, s, t []float64, c float64) []float64 { return gf.AddScaledTo(d, t, c, s) },
		func(d, s, t []float64, c float64) []float64 { return ef.AddScaledTo(d, t, c, s) }},
	{"Sub", func(d, s, _ []float64, _ float64) []float64 { gf.Sub(d, s); return d },
		func(d, s, _ []float64, _ float64) []float64 { ef.Sub(d, s); return d }},
	{"SubTo", func(d, s, t []float64, _ float64) []float64 { return gf.SubTo(d, s, t) },
		func(d, s, t []float64, _ float64) []float64 { return ef.SubTo(d, s, t) }},
	{"Mul", func(d, s, _ []float64, _ float64) []float64 { gf.Mul(d, s); return d },
		func(d, s, _ []float64, _ float64) []float64 { ef.Mul(d, s); return d }},
	{"MulTo", func(d, s, t []float64, _ float64) []float64 { return gf.MulTo(d, s, t) },
		func(d, s, t []float64, _ float64) []float64 { return ef.MulTo(d, s, t) }},
	{"Div", func(d, s, _ []float64, _ float64) []float64 { gf.Div(d, s); return d },
		func(d, s, _ []float64, _ float64) []float64 { ef.Div(d, s); return d }},
	{"DivTo", func(d, s, t []float64, _ float64) []float64 { return gf.DivTo(d, s, t) },
		func(d, s, t []float64, _ float64) []float64 { return ef.DivTo(d, s, t) }},
	{"Scale", func(d, _, _ []float64, c float64) []float64 { gf.Scale(c, d); return d },
		func(d, _, _ []float64, c float64) []float64 { ef.Scale(c, d); return d }},
	{"ScaleTo", func(d, s, _ []float64, c float64) []float64 { return gf.ScaleTo(d, c, s) },
		func(d, s, _ []float64, c float64) []float64 { return ef.ScaleTo(d, c, s) }},
}

// requireSameBits fails unless got and want hold the same bits, NaN
// payloads and signs of zeros included.
func requireSameBits(t *testing.T, want, got []float64, format string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want), fmt.Sprintf(format, args...))
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			require.Failf(t, "bits differ", "%s: element %d of %d: gonum %v (%#016x), elem %v (%#016x)",
				fmt.Sprintf(format, args...), i, len(want), want[i], math.Float64bits(want[i]), got[i], math.Float64bits(got[i]))
		}
	}
}

func TestElementwiseBitsMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, f := range elementwise {
		t.Run(f.name, func(t *testing.T) {
			for _, n := range testLengths {
				for _, p := range profiles {
					off := r.IntN(4)
					d, s, u := data(r, p, n, off), data(r, profiles[r.IntN(4)], n, r.IntN(4)), data(r, p, n, r.IntN(4))
					c := scalars[r.IntN(len(scalars))]
					runBoth(t, f, d, s, u, c, "n=%d profile=%d off=%d c=%v", n, p, off, c)
					// dst as an input: in place, as gonum allows.
					runBoth(t, f, d, d, u, c, "dst=s n=%d profile=%d c=%v", n, p, c)
					runBoth(t, f, d, s, d, c, "dst=t n=%d profile=%d c=%v", n, p, c)
				}
			}
		})
	}
}

// runBoth runs f of both packages on copies of dst (or on the copy itself
// where s or t is dst) and requires the same bits in what they wrote.
func runBoth(t *testing.T, f pair, dst, s, u []float64, c float64, format string, args ...any) {
	t.Helper()
	run := func(fn call) []float64 {
		d := clone(dst, 1)
		ss, uu := s, u
		if sameSlice(s, dst) {
			ss = d
		}
		if sameSlice(u, dst) {
			uu = d
		}
		out := fn(d, ss, uu, c)
		require.True(t, sameSlice(out, d), "the returned slice is dst")
		return d
	}
	requireSameBits(t, run(f.gonum), run(f.ours), format, args...)
}

func sameSlice(a, b []float64) bool {
	return unsafe.SliceData(a) == unsafe.SliceData(b) && len(a) == len(b)
}

// panicOf returns the value f panics with, or nil.
func panicOf(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

// requireSamePanic fails unless ours panics with the value gonum panics
// with, or neither panics.
func requireSamePanic(t *testing.T, gonum, ours func(), format string, args ...any) {
	t.Helper()
	want := panicOf(gonum)
	if want == nil {
		require.NotPanics(t, ours, append([]any{format}, args...)...)
		return
	}
	require.PanicsWithValue(t, want, ours, append([]any{format}, args...)...)
}

func TestElementwisePanicsMatchGonum(t *testing.T) {
	for _, f := range elementwise {
		for _, l := range [][3]int{{3, 4, 4}, {4, 3, 4}, {4, 4, 3}, {3, 3, 4}, {0, 1, 1}, {1, 0, 0}, {2, 2, 2}} {
			d, s, u := make([]float64, l[0]), make([]float64, l[1]), make([]float64, l[2])
			requireSamePanic(t, func() { f.gonum(d, s, u, 2) }, func() { f.ours(d, s, u, 2) }, "%s lengths %v", f.name, l)
		}
	}
}
