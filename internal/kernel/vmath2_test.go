package kernel_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/mathref"
	"github.com/simdkit/elem/internal/testkit"
)

// mathPairs draws the argument pairs of a math function of two arguments:
// random bit patterns, both magnitudes in one range (near overflow and
// underflow too), and every pair of special values.
var mathPairs = map[string]func(rng *rand.Rand) (float64, float64){
	"hypot": func(rng *rand.Rand) (float64, float64) {
		switch rng.IntN(4) {
		case 0:
			return math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
		case 1: // near each other's size, any scale
			e := rng.IntN(2000) - 1000
			return math.Ldexp(rng.Float64(), e), math.Ldexp(rng.Float64(), e+rng.IntN(60)-30)
		case 2: // float32's range
			e := rng.IntN(280) - 150
			return math.Ldexp(rng.Float64()-0.5, e), math.Ldexp(rng.Float64()-0.5, e+rng.IntN(30)-15)
		}
		return (rng.Float64() - 0.5) * 10, (rng.Float64() - 0.5) * 10
	},
	"atan2": func(rng *rand.Rand) (float64, float64) {
		switch rng.IntN(5) {
		case 0:
			return math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
		case 1: // near the diagonals and the axes, where the reduction switches
			x := (rng.Float64() - 0.5) * 8
			return x * (1 + (rng.Float64()-0.5)*math.Ldexp(1, -rng.IntN(50))), x * []float64{1, -1, 0.66, -0.66, 1e-10, 1e10}[rng.IntN(6)]
		case 2: // any scale, subnormals too
			e := rng.IntN(2100) - 1075
			return math.Ldexp(rng.Float64()-0.5, e), math.Ldexp(rng.Float64()-0.5, e+rng.IntN(80)-40)
		case 3: // float32's range
			e := rng.IntN(280) - 150
			return math.Ldexp(rng.Float64()-0.5, e), math.Ldexp(rng.Float64()-0.5, e+rng.IntN(30)-15)
		}
		return (rng.Float64() - 0.5) * 10, (rng.Float64() - 0.5) * 10
	},
	"pow": func(rng *rand.Rand) (float64, float64) {
		switch rng.IntN(6) {
		case 0:
			return math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
		case 1: // near 1, large exponents
			return 1 + (rng.Float64()-0.5)*math.Ldexp(1, -rng.IntN(40)), (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(60))
		case 2: // results near overflow and underflow, both types'
			x := math.Ldexp(rng.Float64()+0.5, rng.IntN(200)-100)
			t := []float64{709.78, -708.4, -745.13, 88.72, -87.33, -103.97}[rng.IntN(6)]
			return x, t / math.Log(x) * (1 + (rng.Float64()-0.5)*1e-6)
		case 3: // negative x, integer y
			return -math.Ldexp(rng.Float64()+0.5, rng.IntN(40)-20), float64(rng.IntN(61) - 30)
		case 4: // any scale, subnormals too
			return math.Ldexp(rng.Float64(), rng.IntN(2100)-1075), (rng.Float64() - 0.5) * 4
		}
		return rng.Float64() * 10, (rng.Float64() - 0.5) * 40
	},
	"expsub": func(rng *rand.Rand) (float64, float64) {
		switch rng.IntN(4) {
		case 0:
			return math.Float64frombits(rng.Uint64()), math.Float64frombits(rng.Uint64())
		case 1: // differences near overflow and underflow, both types'
			m := (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(20))
			t := []float64{709.78, -708.4, -745.13, 88.72, -87.33, -103.97}[rng.IntN(6)]
			return m + t*(1+(rng.Float64()-0.5)*1e-6), m
		case 2: // softmax's: x - max(x) <= 0
			m := (rng.Float64() - 0.5) * 200
			return m - rng.ExpFloat64()*4, m
		}
		return (rng.Float64() - 0.5) * 40, (rng.Float64() - 0.5) * 40
	},
}

func binaryOpNamed(t *testing.T, name string) kernel.Op {
	for op := range kernel.NumOps {
		if op.String() == name {
			return op
		}
	}
	t.Fatalf("no binary op %q", name)
	return 0
}

// TestMathBinary checks every math op of two arguments on float32 and
// float64: within 1 ulp of the exact value on random and adversarial pairs
// and every pair of special values, and the bits of the generic kernels
// on every implementation in every kind (a scalar either side).
func TestMathBinary(t *testing.T) {
	for name, pairs := range mathPairs {
		t.Run(name+"/float32", func(t *testing.T) { testMathBinary[float32](t, name, pairs) })
		t.Run(name+"/float64", func(t *testing.T) { testMathBinary[float64](t, name, pairs) })
	}
}

func testMathBinary[T kernel.Float](t *testing.T, name string, pairs func(*rand.Rand) (float64, float64)) {
	op := binaryOpNamed(t, name)
	ref := mathref.Funcs2[name]
	rng := rand.New(rand.NewPCG(3, 4))
	sp := testkit.Specials[T]()
	var a, b []T
	for _, x := range sp {
		for _, y := range sp {
			a, b = append(a, x), append(b, y)
		}
	}
	for len(a) < 4*mathCount64() {
		x, y := pairs(rng)
		a, b = append(a, T(x)), append(b, T(y))
	}
	n := len(a)
	want := make([]T, n)
	kernel.Reference(kernel.VV, op, 1, n, want, 0, a, 0, b, 0)
	// Go's special values, signs of zeros and infinities included, on
	// every pair of special values.
	special := func(x T) bool { return x != x || x == 0 || math.IsInf(float64(x), 0) }
	for i := range len(sp) * len(sp) {
		if !special(a[i]) && !special(b[i]) {
			continue // the error check covers it (Go's s390x Atan2(-5e-324, MaxFloat64) is +0, the exact value's sign is -)
		}
		g, w := float64(want[i]), ref.Ref32(float64(a[i]), float64(b[i]))
		switch {
		case w != w:
			require.True(t, g != g, "%s(%v, %v) = %v, want NaN", name, a[i], b[i], g)
		case w == 0 || math.IsInf(w, 0):
			require.True(t, g == w && math.Signbit(g) == math.Signbit(w), "%s(%v, %v) = %v, want %v", name, a[i], b[i], g, w)
		}
	}
	var mu sync.Mutex
	worst, wa, wb := 0.0, T(0), T(0)
	parallelChunks(n, func(lo, hi int) {
		w, x, y := 0.0, T(0), T(0)
		for i := lo; i < hi; i++ {
			var e float64
			if testkit.Is32[T]() {
				e = mathref.ULP32(float32(want[i]), ref.Ref32(float64(a[i]), float64(b[i])))
			} else {
				e = mathref.ULP64(float64(want[i]), ref.Ref64(float64(a[i]), float64(b[i])))
			}
			if e > w || e != e {
				w, x, y = e, a[i], b[i]
			}
		}
		mu.Lock()
		if w > worst || w != w {
			worst, wa, wb = w, x, y
		}
		mu.Unlock()
	})
	t.Logf("%s %T: max %.4f ulp at (%v, %v) over %d pairs", name, a[0], worst, wa, wb, n)
	require.LessOrEqual(t, worst, 1.0, "%s(%v, %v)", name, wa, wb)
	restore := kernel.Current()
	defer kernel.Use(restore, "test")
	got := make([]T, n)
	for _, impl := range kernel.Available() {
		kernel.Use(impl, "test")
		kernel.Binary(kernel.VV, op, 1, n, got, 0, a, 0, b, 0, false)
		requireSameBits(t, impl, name, got, want)
		// One value per row of b, then of a: rows of 16.
		m := n / 16
		kernel.Binary(kernel.VS, op, m, 16, got, 16, a, 16, b, 16, false)
		ref := make([]T, 16*m)
		kernel.Reference(kernel.VS, op, m, 16, ref, 16, a, 16, b, 16)
		requireSameBits(t, impl, name+" vs", got[:16*m], ref)
		kernel.Binary(kernel.SV, op, m, 16, got, 16, a, 16, b, 16, false)
		kernel.Reference(kernel.SV, op, m, 16, ref, 16, a, 16, b, 16)
		requireSameBits(t, impl, name+" sv", got[:16*m], ref)
	}
}

func requireSameBits[T kernel.Float](t *testing.T, impl kernel.Impl, what string, got, want []T) {
	for i := range want {
		if testkit.RawBits(got[i]) != testkit.RawBits(want[i]) {
			t.Fatalf("%s %s at %d: %v (%#x), generic %v (%#x)", impl, what, i, got[i], testkit.RawBits(got[i]), want[i], testkit.RawBits(want[i]))
		}
	}
}
