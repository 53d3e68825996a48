package elem

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// The norms map their values (|a[i]|, or |a[i] - b[i]| with the
// difference rounded to T) a piece at a time into a buffer that stays in
// L1, and fold each piece as Sum and MaxOf do: pieces are whole rounds of
// the accumulators, so the order is the canonical one. A NaN result is the
// first NaN among the mapped values, quiet (and, as |x|, positive).

// normPiece is the number of values the norms map at once.
const normPiece = 1024

// normBuffers holds the norms' buffers between calls.
var normBuffers = sync.Pool{New: func() any { return new([normPiece]float64) }}

// Norm1 returns the sum of |a[i]| in the canonical order of Sum: the L1
// norm (gonum's floats.Norm(a, 1)). The norm of no elements is 0.
func Norm1[T Float](a []T) T {
	return distance1(a, nil)
}

// Norm2 returns the Euclidean norm sqrt(a[0]^2 + a[1]^2 + ...), within 1
// ulp and with no overflow or underflow on the way (the norm of
// {1e200, 1e200, 3e200} is 3.3166e200, as gonum's floats.Norm(a, 2)).
// float32 values are squared and summed in float64, exactly or nearly so;
// float64 values are scaled by a power of two that brings the greatest
// to [0.5, 1), and their squares summed in two parts (a double-double,
// the rounding error of each square included): both keep the result well
// within an ulp of the exact value for any length, in one documented order
// (value i into accumulator i mod 4), so the bits are the same on every
// CPU. A NaN anywhere gives a NaN (before +Inf); the norm of no elements
// is 0.
func Norm2[T Float](a []T) T {
	return distance2(a, nil)
}

// NormInf returns the greatest |a[i]|: the maximum norm. The norm of no
// elements is 0.
func NormInf[T Float](a []T) T {
	return distanceInf(a, nil)
}

// Distance returns the p-norm of the differences a[i] - b[i], each rounded
// to T, computed without a temporary: Norm1's sum for p = 1, Norm2's
// algorithm for p = 2, NormInf's maximum for p = +Inf, and for any other
// p > 0 the sum of |a[i] - b[i]|^p (elem's Pow, in Sum's order) to the
// power 1/p, as gonum's floats.Distance. It panics if the lengths differ
// or p is not above 0.
func Distance[T Float](a, b []T, p float64) T {
	if len(a) != len(b) {
		panic(fmt.Sprintf("elem: Distance: slice lengths differ: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	switch {
	case p == 1:
		return distance1(a, b)
	case p == 2:
		return distance2(a, b)
	case math.IsInf(p, 1):
		return distanceInf(a, b)
	case p > 0:
		return distanceP(a, b, T(p))
	}
	panic(fmt.Sprintf("elem: Distance: p = %v: the p-norm needs p > 0", p))
}

// normWalk is a walk over the mapped values of a (or a - b) a piece at a
// time, in a pooled buffer.
type normWalk[T Float] struct {
	a, b []T
	buf  *[normPiece]float64
}

func newWalk[T Float](a, b []T) normWalk[T] {
	return normWalk[T]{a: a, b: b, buf: normBuffers.Get().(*[normPiece]float64)}
}

func (w normWalk[T]) done() { normBuffers.Put(w.buf) }

// piece returns the mapped values from off: a's own when there is no b
// and abs is false, else in the buffer.
func (w normWalk[T]) piece(off int, abs bool) []T {
	n := min(normPiece, len(w.a)-off)
	x := w.a[off:][:n]
	if w.b == nil && !abs {
		return x
	}
	buf := unsafe.Slice((*T)(unsafe.Pointer(w.buf)), n)
	if w.b != nil {
		kernel.Sub(kernel.VV, 1, n, buf, n, x, n, w.b[off:][:n], n, false)
		x = buf
	}
	if abs {
		kernel.Abs(kernel.V, 1, n, buf, n, x, n, false)
	}
	return buf
}

// nan returns the result of a norm that is a NaN: the first NaN among the
// mapped values, quiet and positive.
func (w normWalk[T]) nan() T {
	for off := 0; off < len(w.a); off += normPiece {
		x := w.piece(off, true)
		if i := kernel.FindNaN(x); i < len(x) {
			return kernel.Quiet(x[i])
		}
	}
	return kernel.DefaultNaN[T]()
}

// distance1 is Norm1 of a, or of a - b.
func distance1[T Float](a, b []T) T {
	w := newWalk(a, b)
	defer w.done()
	var acc [kernel.Lanes]T // +0: every term is |x| >= +0
	for off := 0; off < len(a); off += normPiece {
		kernel.Sum(acc[:], w.piece(off, true))
	}
	if s := kernel.SumTree(acc[:]); s == s {
		return s
	}
	return w.nan()
}

// distanceInf is NormInf of a, or of a - b.
func distanceInf[T Float](a, b []T) T {
	w := newWalk(a, b)
	defer w.done()
	var st [kernel.Lanes]T
	acc := kernel.MaxStart(&st)
	for off := 0; off < len(a); off += normPiece {
		kernel.MaxOf(acc, w.piece(off, true))
	}
	if m := kernel.Greatest(acc); m == m {
		return max(m, 0)
	}
	return w.nan()
}

// distanceP is the p-norm of a - b for a p other than 1, 2 and +Inf.
func distanceP[T Float](a, b []T, p T) T {
	w := newWalk(a, b)
	defer w.done()
	var acc [kernel.Lanes]T
	one := [2]T{p, 1 / p}
	for off := 0; off < len(a); off += normPiece {
		x := w.piece(off, true)
		kernel.Pow(kernel.VS, 1, len(x), x, len(x), x, len(x), one[:1], 0, false)
		kernel.Sum(acc[:], x)
	}
	s := kernel.SumTree(acc[:])
	if s != s {
		return w.nan()
	}
	r := [1]T{s}
	kernel.Pow(kernel.VS, 1, 1, r[:], 1, r[:], 1, one[1:], 0, false)
	return r[0]
}

// distance2 is Norm2 of a, or of a - b.
func distance2[T Float](a, b []T) T {
	w := newWalk(a, b)
	defer w.done()
	if unsafe.Sizeof(T(0)) == 4 {
		var s [4]float64
		for off := 0; off < len(a); off += normPiece {
			sumSquares32(&s, w.piece(off, false))
		}
		r := (s[0] + s[2]) + (s[1] + s[3])
		if r != r {
			return w.nan()
		}
		return T(math.Sqrt(r))
	}
	m := distanceInf(a, b)
	switch {
	case m != m:
		return m
	case m == 0 || math.IsInf(float64(m), 1):
		return m
	}
	_, e := math.Frexp(float64(m)) // m = f * 2^e, f in [0.5, 1)
	up, down := math.Ldexp(1, -e/2), math.Ldexp(1, -e-(-e/2))
	var s sumSquares
	for off := 0; off < len(a); off += normPiece {
		addSquares(&s, w.piece(off, false), up, down)
	}
	return T(math.Ldexp(math.Sqrt(s.result()), e))
}

// sumSquares32 adds the squares of x, exact in float64, into s: x[i] into
// s[i mod 4] (x's length is a multiple of 4 but for the last piece).
func sumSquares32[T Float](s *[4]float64, x []T) {
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y0, y1, y2, y3 := float64(x[i]), float64(x[i+1]), float64(x[i+2]), float64(x[i+3])
		s[0] += float64(y0 * y0)
		s[1] += float64(y1 * y1)
		s[2] += float64(y2 * y2)
		s[3] += float64(y3 * y3)
	}
	for j := range x[i:] {
		y := float64(x[i+j])
		s[j] += float64(y * y)
	}
}

// sumSquares is a sum of squares in four double-double accumulators.
type sumSquares struct {
	hi, lo [4]float64
}

// addSquares adds the squares of x (float64 values) scaled by up*down
// (powers of two, applied one after the other so that neither overflows),
// x[i] into accumulator i mod 4.
func addSquares[T Float](s *sumSquares, x []T, up, down float64) {
	for i, v := range x {
		y := float64(float64(v)*up) * down
		p := float64(y * y)
		e := math.FMA(y, y, -p) // the square's rounding error, exact
		j := i & 3
		h := s.hi[j] + p
		b := h - s.hi[j]
		s.lo[j] += float64((s.hi[j]-float64(h-b))+float64(p-b)) + e
		s.hi[j] = h
	}
}

// result combines the accumulators: the four high parts and then the
// low parts, in a fixed order.
func (s *sumSquares) result() float64 {
	hi := (s.hi[0] + s.hi[2]) + (s.hi[1] + s.hi[3])
	lo := (s.lo[0] + s.lo[2]) + (s.lo[1] + s.lo[3])
	return hi + lo
}
