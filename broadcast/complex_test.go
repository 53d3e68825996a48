package broadcast

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
)

// TestApplyComplex runs Add, Sub, Mul and Div on complex values over
// broadcasts of every kind (rows, columns, scalars, outer products, empty
// and strided inner rows, rows past a piece) against the elementwise
// definition through the NumPy strides, bit for bit.
func TestApplyComplex(t *testing.T) {
	checkApplyComplex[complex64](t)
	checkApplyComplex[complex128](t)
}

func checkApplyComplex[C elem.Complex](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	value := func() C {
		if rng.IntN(20) == 0 {
			return C(complex(math.Inf(1), math.NaN()))
		}
		return C(complex(rng.NormFloat64(), rng.NormFloat64()))
	}
	for _, c := range []struct{ a, b Shape }{
		{S(3, 4), S(4)}, {S(3, 4), S(3, 1)}, {S(5), S()}, {S(), S(7)}, {S(4, 1), S(1, 6)},
		{S(2, 1, 5), S(3, 1)}, {S(0, 3), S(3)}, {S(2, 600), S(600)}, {S(600, 2), S(600, 1)},
		{S(3, 2, 700), S(3, 1, 1)}, {S(1), S(1)},
	} {
		out, err := Numpy(c.a, c.b)
		require.NoError(t, err)
		sa, err := Strides(c.a, out)
		require.NoError(t, err)
		sb, err := Strides(c.b, out)
		require.NoError(t, err)
		size := func(s Shape) int { n, err := s.Size(); require.NoError(t, err); return n }
		a, b := make([]C, size(c.a)), make([]C, size(c.b))
		for i := range a {
			a[i] = value()
		}
		for i := range b {
			b[i] = value()
		}
		for _, op := range []elem.Op{elem.OpAdd, elem.OpSub, elem.OpMul, elem.OpDiv} {
			got, want := make([]C, size(out)), make([]C, size(out))
			require.NoError(t, Apply(op, got, a, c.a, b, c.b), "%v %v %v", op, c.a, c.b)
			for i := range want {
				ia, ib, rest := 0, 0, i
				for k := len(out) - 1; k >= 0; k-- {
					j := rest % out[k]
					rest /= out[k]
					ia += j * sa[k]
					ib += j * sb[k]
				}
				complexCall(op, want[i:i+1], a[ia:ia+1], b[ib:ib+1]) // elem's call on one value
			}
			require.Equal(t, complexBits(want), complexBits(got), "%v %T %v %v", op, a, c.a, c.b)
		}
	}
}

func complexBits[C elem.Complex](x []C) [][2]uint64 {
	out := make([][2]uint64, len(x))
	for i, v := range x {
		z := complex128(v)
		out[i] = [2]uint64{math.Float64bits(real(z)), math.Float64bits(imag(z))}
	}
	return out
}

func TestApplyComplexErrors(t *testing.T) {
	a, b := make([]complex64, 6), make([]complex64, 3)
	requireErr(t, Apply(elem.OpMax, a, a, S(2, 3), b, S(3)), []error{ErrOp}, "max", "complex64")
	requireErr(t, Apply(elem.OpMul, a[:5], a, S(2, 3), b, S(3)), []error{ErrDataLength}, "dst")
	requireErr(t, Apply(elem.OpMul, a[1:], a[:5], S(5), a[:5], S(5)), []error{ErrOverlap}, "dst")
	// In place: a = a * b, b broadcast along a's rows.
	for i := range a {
		a[i] = complex(float32(i), 1)
	}
	b = []complex64{1i, 2, -1}
	require.NoError(t, ApplyInPlace(elem.OpMul, a, S(2, 3), b, S(3)))
	require.Equal(t, []complex64{-1 + 0i, 2 + 2i, -2 - 1i, -1 + 3i, 8 + 2i, -5 - 1i}, a)
}

// TestApplyViewComplex runs the complex ops on strided views: a transposed
// matrix times a row, a reversed view, a column of a matrix in place, and
// a scalar (rank-0) view, against the elementwise definition.
func TestApplyViewComplex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := make([]complex128, 4*300)
	for i := range m {
		m[i] = complex(rng.NormFloat64(), rng.NormFloat64())
	}
	row := []complex128{1 + 2i, -0.5i, 3, 2 - 1i}
	mul := func(x, y complex128) complex128 {
		d := []complex128{0}
		elem.Mul(d, []complex128{x}, []complex128{y})
		return d[0]
	}
	// (300, 4) = transpose of (4, 300) times a row of 4.
	dst := make([]complex128, 300*4)
	a := ViewOf(m, S(4, 300)).Transposed()
	require.NoError(t, ApplyView(elem.OpMul, ViewOf(dst, S(300, 4)), a, View[complex128]{Data: row, Shape: S(4), Strides: []int{1}}))
	for i := range 300 {
		for j := range 4 {
			require.Equal(t, mul(m[j*300+i], row[j]), dst[i*4+j], "(%d, %d)", i, j)
		}
	}
	// A reversed row minus a scalar.
	s := []complex128{2 - 3i}
	rev := View[complex128]{Data: m[:300], Shape: S(300), Strides: []int{-1}}
	out := make([]complex128, 300)
	require.NoError(t, ApplyView(elem.OpSub, ViewOf(out, S(300)), rev, ViewOf(s, S())))
	for i := range 300 {
		require.Equal(t, m[299-i]-s[0], out[i], "%d", i)
	}
	// Column 1 of m as (4, 300) divided by itself, in place: ones.
	col := View[complex128]{Data: m[1:], Shape: S(4), Strides: []int{300}}
	require.NoError(t, ApplyView(elem.OpDiv, col, col, col))
	for j := range 4 {
		require.Equal(t, complex128(1), m[j*300+1])
	}
	// Rank 0: one value.
	one := []complex128{0}
	require.NoError(t, ApplyView(elem.OpMul, ViewOf(one, S()), ViewOf(row[:1], S()), ViewOf(s, S())))
	require.Equal(t, mul(row[0], s[0]), one[0])
	requireErr(t, ApplyView(elem.OpMin, col, col, col), []error{ErrOp}, "min", "complex128")
	over := View[complex128]{Data: m[1:], Shape: S(4), Strides: []int{301}} // shares its first element with col
	requireErr(t, ApplyView(elem.OpAdd, over, col, col), []error{ErrOverlap}, "dst")
}
