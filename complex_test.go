package elem_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// randomComplex is testkit's random value, special parts one time in 4
// when special is set.
func randomComplex(rng *rand.Rand, special bool) complex128 {
	if special {
		return testkit.RandomComplex(rng, 4)
	}
	return testkit.RandomComplex(rng, 0)
}

func complexSlices[C elem.Complex](rng *rand.Rand, n int, special bool) []C {
	s := make([]C, n)
	for i := range s {
		s[i] = C(randomComplex(rng, special))
	}
	return s
}

func complexBits[C elem.Complex](x []C) []uint64 {
	var out []uint64
	if unsafe.Sizeof(x[0]) == 8 {
		for _, p := range unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x)) {
			out = append(out, uint64(p))
		}
		return out
	}
	return append(out, unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))...)
}

// complexLengths are the lengths the complex calls run on: every one to
// 40 (the kernels' steps and tails), and a few long ones.
var complexLengths = func() []int {
	var ls []int
	for n := range 41 {
		ls = append(ls, n)
	}
	return append(ls, 255, 256, 257, 1000, 4099)
}()

// mulRef is Mul's definition for one value, through the kernels' scalar
// products.
func mulRef[C elem.Complex](a, b C) C {
	if unsafe.Sizeof(a) == 8 {
		return C(kernel.MulC64(complex64(a), complex64(b)))
	}
	return C(kernel.MulC128(complex128(a), complex128(b)))
}

func divRef[C elem.Complex](a, b C) C {
	if unsafe.Sizeof(a) == 8 {
		return C(kernel.DivC64(complex64(a), complex64(b)))
	}
	return C(kernel.DivC128(complex128(a), complex128(b)))
}

func conjOf[C elem.Complex](x C) C {
	c := complex128(x)
	return C(complex(real(c), -imag(c)))
}

func TestComplexArithmetic(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		checkComplexArithmetic[complex64](t)
		checkComplexArithmetic[complex128](t)
		checkComplexArithmetic[signal](t)
	})
}

// signal is a type defined on complex64, as user code defines them.
type signal complex64

func checkComplexArithmetic[C elem.Complex](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range complexLengths {
		a, b := complexSlices[C](rng, n, true), complexSlices[C](rng, n, true)
		s := C(randomComplex(rng, true))
		got := make([]C, n)
		want := make([]C, n)
		check := func(what string) {
			t.Helper()
			require.Equal(t, complexBits(want), complexBits(got), "%T %s n=%d", a, what, n)
		}
		if n == 0 {
			continue
		}
		for i := range want {
			want[i] = mulRef(a[i], b[i])
		}
		elem.Mul(got, a, b)
		check("Mul")
		for i := range want {
			want[i] = mulRef(a[i], conjOf(b[i]))
		}
		elem.MulConj(got, a, b)
		check("MulConj")
		for i := range want {
			want[i] = mulRef(a[i], s)
		}
		elem.Scale(got, a, s)
		check("Scale")
		for i := range want {
			want[i] = divRef(a[i], b[i])
		}
		elem.Div(got, a, b)
		check("Div")
		for i := range want {
			want[i] = conjOf(a[i])
		}
		elem.Conj(got, a)
		check("Conj")
		// Add, Sub and ScaleReal are the real calls on the parts.
		for _, c := range []struct {
			name string
			cx   func(d, x, y []C)
			re64 func(d, x, y []float64)
		}{
			{"Add", elem.Add[C], elem.Add[float64]},
			{"Sub", elem.Sub[C], elem.Sub[float64]},
			{"ScaleReal", func(d, x, _ []C) { elem.ScaleReal(d, x, -2.5) }, func(d, x, _ []float64) { elem.MulScalar(d, x, -2.5) }},
		} {
			c.cx(got, a, b)
			if unsafe.Sizeof(a[0]) == 8 { // float32 parts: compare with the float32 calls
				w, x, y := parts32(want), parts32(a), parts32(b)
				switch c.name {
				case "Add":
					elem.Add(w, x, y)
				case "Sub":
					elem.Sub(w, x, y)
				default:
					elem.MulScalar(w, x, -2.5)
				}
			} else {
				c.re64(parts64(want), parts64(a), parts64(b))
			}
			check(c.name)
		}
		// In place.
		copy(got, a)
		elem.Mul(got, got, b)
		for i := range want {
			want[i] = mulRef(a[i], b[i])
		}
		check("Mul in place")
	}
}

func parts32[C elem.Complex](x []C) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

func parts64[C elem.Complex](x []C) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(x))), 2*len(x))
}

// TestComplexMatchesGo compares Mul and Div with Go's own operators where
// Go's bits are elem's (but for the payload of NaN parts, elem's being the
// quiet NaN): complex128 products where the compiler does not fuse them
// (amd64 below GOAMD64=v3), both divisions on amd64 (the runtime is built
// unfused there). Go's complex64 product is taken in float64, and is
// within an ulp or so of elem's float32 one.
func TestComplexMatchesGo(t *testing.T) {
	if !goUnfused {
		t.Skip("Go's complex arithmetic may be fused here")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := complexSlices[complex128](rng, 5000, true), complexSlices[complex128](rng, 5000, true)
	got := make([]complex128, len(a))
	elem.Mul(got, a, b)
	for i := range a {
		requireSameOrNaN(t, a[i]*b[i], got[i], "%v * %v", a[i], b[i])
	}
	elem.Div(got, a, b)
	for i := range a {
		requireSameOrNaN(t, a[i]/b[i], got[i], "%v / %v", a[i], b[i])
	}
	a64, b64 := complexSlices[complex64](rng, 5000, true), complexSlices[complex64](rng, 5000, true)
	got64 := make([]complex64, len(a64))
	elem.Div(got64, a64, b64)
	for i := range a64 {
		requireSameOrNaN(t, complex128(a64[i]/b64[i]), complex128(got64[i]), "%v / %v", a64[i], b64[i])
	}
}

func requireSameOrNaN(t *testing.T, want, got complex128, format string, args ...any) {
	t.Helper()
	args = append([]any{format}, args...)
	for _, p := range [][2]float64{{real(want), real(got)}, {imag(want), imag(got)}} {
		if p[0] != p[0] {
			require.True(t, p[1] != p[1], args...)
			require.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(p[1]), args...) // the quiet NaN (widened)
			continue
		}
		require.Equal(t, math.Float64bits(p[0]), math.Float64bits(p[1]), args...)
	}
}

func TestComplexParts(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		checkComplexParts[float32, complex64](t)
		checkComplexParts[float64, complex128](t)
	})
}

func checkComplexParts[F elem.Float, C elem.Complex](t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range complexLengths {
		a := complexSlices[C](rng, n, true)
		re, im := make([]F, n), make([]F, n)
		for i, x := range a {
			c := complex128(x)
			re[i], im[i] = F(real(c)), F(imag(c))
		}
		gotRe, gotIm, back := make([]F, n), make([]F, n), make([]C, n)
		elem.Real(gotRe, a)
		elem.Imag(gotIm, a)
		require.Equal(t, floatBits(re), floatBits(gotRe), "Real n=%d", n)
		require.Equal(t, floatBits(im), floatBits(gotIm), "Imag n=%d", n)
		elem.FromParts(back, re, im)
		require.Equal(t, complexBits(a), complexBits(back), "FromParts n=%d", n)

		want, got := make([]F, n), make([]F, n)
		if unsafe.Sizeof(a[0]) == 8 {
			for i, x := range a {
				want[i] = F(kernel.MagC64(complex64(x)))
			}
		} else {
			elem.Hypot(want, re, im)
		}
		elem.Magnitude(got, a)
		require.Equal(t, floatBits(want), floatBits(got), "Magnitude n=%d", n)
		elem.Atan2(want, im, re)
		elem.Phase(got, a)
		require.Equal(t, floatBits(want), floatBits(got), "Phase n=%d", n)
	}
}

func floatBits[F elem.Float](x []F) []uint64 {
	out := make([]uint64, len(x))
	for i, v := range x {
		if unsafe.Sizeof(v) == 4 {
			out[i] = uint64(math.Float32bits(float32(v)))
		} else {
			out[i] = math.Float64bits(float64(v))
		}
	}
	return out
}

// TestComplexMagnitudeAccuracy checks Magnitude and Phase against
// math/cmplx (correctly rounded float64 values for complex64) on huge and
// tiny parts, where the plain sqrt(re² + im²) overflows or underflows.
func TestComplexMagnitudeAccuracy(t *testing.T) {
	a := []complex64{complex(3e38, 3.3e38), complex(1e-45, 1e-45), complex(-3, 4), complex(0, float32(math.Inf(-1))), complex(1e-40, -2e-40)}
	mag, ph := make([]float32, len(a)), make([]float32, len(a))
	elem.Magnitude(mag, a)
	elem.Phase(ph, a)
	for i, x := range a {
		require.InDelta(t, 0, ulps32(float32(cmplx.Abs(complex128(x))), mag[i]), 1, "|%v| = %v", x, mag[i])
		require.InDelta(t, 0, ulps32(float32(cmplx.Phase(complex128(x))), ph[i]), 1, "phase(%v) = %v", x, ph[i])
	}
}

func ulps32(want, got float32) float64 {
	if want == got {
		return 0
	}
	return math.Abs(float64(got-want)) / float64(math.Nextafter32(float32(math.Abs(float64(want))), float32(math.Inf(1)))-float32(math.Abs(float64(want))))
}

// TestComplexSums checks Sum, Dot and DotConj against the canonical order
// of complex sums written plainly: 32 accumulators over the parts, the
// tree without its last step.
func TestComplexSums(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		checkComplexSums[float32, complex64](t)
		checkComplexSums[float64, complex128](t)
	})
}

func checkComplexSums[F float32 | float64, C complex64 | complex128](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range append(complexLengths, 600) {
		for _, special := range []bool{false, true} {
			a, b := complexSlices[C](rng, n, special), complexSlices[C](rng, n, special)
			terms := func(f func(x, y C) C) C {
				var acc [32]F
				for j := range acc {
					acc[j] = F(math.Copysign(0, -1))
				}
				for i := range a {
					p := f(a[i], b[i])
					acc[2*i%32] += F(real(complex128(p)))
					acc[2*i%32+1] += F(imag(complex128(p)))
				}
				for h := 16; h >= 2; h /= 2 {
					for j := range h {
						acc[j] += acc[j+h]
					}
				}
				if n == 0 {
					return 0
				}
				s := complex(float64(acc[0]), float64(acc[1]))
				if real(s) != real(s) {
					s = complex(math.NaN(), imag(s))
				}
				if imag(s) != imag(s) {
					s = complex(real(s), math.NaN())
				}
				return C(s)
			}
			check := func(what string, want, got C) {
				t.Helper()
				w, g := []C{want}, []C{got}
				if real(complex128(want)) != real(complex128(want)) || imag(complex128(want)) != imag(complex128(want)) {
					requireSameOrNaN(t, complex128(want), complex128(got), "%T %s n=%d", got, what, n)
					return
				}
				require.Equal(t, complexBits(w), complexBits(g), "%T %s n=%d", got, what, n)
			}
			check("Sum", terms(func(x, _ C) C { return x }), elem.Sum(a))
			check("Dot", terms(mulRef[C]), elem.Dot(a, b))
			check("DotConj", terms(func(x, y C) C { return mulRef(x, conjOf(y)) }), elem.DotConj(a, b))
		}
	}
}

func TestConvertComplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range complexLengths {
		w := complexSlices[complex128](rng, n, true)
		s := make([]complex64, n)
		elem.ConvertComplex(s, w)
		back := make([]complex128, n)
		elem.ConvertComplex(back, s)
		for i := range w {
			require.Equal(t, complexBits([]complex64{complex64(w[i])}), complexBits(s[i:i+1]), "narrowing %v", w[i])
			require.Equal(t, complexBits([]complex128{complex128(s[i])}), complexBits(back[i:i+1]), "widening %v", s[i])
		}
	}
}

func TestComplexMisuse(t *testing.T) {
	a := make([]complex64, 4)
	require.PanicsWithValue(t, "elem: Magnitude: complex64 values have parts of 4 bytes, not float64", func() { elem.Magnitude(make([]float64, 4), a) })
	require.Panics(t, func() { elem.Mul(a, a, make([]complex64, 3)) })
	require.Panics(t, func() { elem.Magnitude(make([]float32, 3), a) })
	require.Panics(t, func() { elem.DotConj(a, a[:2]) })
	require.Panics(t, func() { elem.FromParts(a, make([]float32, 4), make([]float32, 5)) })
}

// TestComplexExp checks Exp on complex values against its definition by
// elem's float calls value by value (bit for bit, every implementation),
// against math/cmplx within a few ulp, and math/cmplx's special cases.
func TestComplexExp(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		checkComplexExp[float32, complex64](t)
		checkComplexExp[float64, complex128](t)
	})
	specials := []complex128{
		complex(math.Inf(1), 0), complex(math.Inf(1), math.Copysign(0, -1)), complex(math.Inf(-1), math.Inf(1)),
		complex(math.Inf(-1), math.NaN()), complex(math.Inf(1), math.Inf(-1)), complex(math.Inf(1), math.NaN()),
		complex(math.NaN(), 0), complex(math.NaN(), math.Copysign(0, -1)), complex(math.Inf(-1), 2), complex(math.Inf(1), 2),
		complex(0, 0), complex(1, math.Inf(1)), complex(math.NaN(), 1),
	}
	got := make([]complex128, len(specials))
	elem.Exp(got, specials)
	for i, z := range specials {
		want := cmplx.Exp(z)
		for k, p := range [][2]float64{{real(want), real(got[i])}, {imag(want), imag(got[i])}} {
			if p[0] != p[0] {
				require.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(p[1]), "exp(%v) part %d", z, k)
				continue
			}
			require.Equal(t, math.Float64bits(p[0]), math.Float64bits(p[1]), "exp(%v) part %d: %v, want %v", z, k, got[i], want)
		}
	}
}

func checkComplexExp[F elem.Float, C elem.Complex](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range complexLengths {
		a := make([]C, n)
		for i := range a {
			a[i] = C(complex(rng.NormFloat64()*20, rng.NormFloat64()*10))
			if rng.IntN(30) == 0 {
				a[i] = C(randomComplex(rng, true))
			}
		}
		got := make([]C, n)
		elem.Exp(got, a)
		for i, z := range a {
			x, y := []F{F(real(complex128(z)))}, []F{F(imag(complex128(z)))}
			r, c, s := make([]F, 1), make([]F, 1), make([]F, 1)
			elem.Exp(r, x)
			elem.Cos(c, y)
			elem.Sin(s, y)
			elem.Mul(c, r, c)
			elem.Mul(s, r, s)
			g := complex128(got[i])
			if math.IsInf(float64(x[0]), 0) || math.IsNaN(float64(x[0])) || math.IsNaN(float64(c[0])) || math.IsNaN(float64(s[0])) {
				continue // the special cases, checked against math/cmplx
			}
			require.Equal(t, floatBits(c), floatBits([]F{F(real(g))}), "real(exp(%v))", z)
			require.Equal(t, floatBits(s), floatBits([]F{F(imag(g))}), "imag(exp(%v))", z)
			if unsafe.Sizeof(z) == 16 && !math.IsInf(real(g), 0) && !math.IsInf(imag(g), 0) && math.Abs(float64(y[0])) < 1e4 { // math.Sin is tens of ulp off far out
				w := cmplx.Exp(complex128(z))
				require.InDelta(t, real(w), real(g), 4*ulp64(real(w))+1e-300, "real(exp(%v))", z)
				require.InDelta(t, imag(w), imag(g), 4*ulp64(imag(w))+1e-300, "imag(exp(%v))", z)
			}
		}
	}
}

func ulp64(x float64) float64 { return math.Nextafter(math.Abs(x), math.Inf(1)) - math.Abs(x) }
