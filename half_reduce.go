package elem

import (
	"fmt"
	"math"

	"github.com/simdkit/elem/internal/kernel"
)

// Half is the half-precision storage types: the element type of the calls
// that read them as float32.
type Half interface {
	Float16 | BFloat16
}

// halfPiece is the number of values the half calls widen to float32 at a
// time, on the stack: a multiple of the canonical order's Lanes and of
// Norm2's pieces.
const halfPiece = 1024

// widen sets dst to the float32 values of a.
func widen[H Half](dst []float32, a []H) {
	kernel.WidenHalf(dst, halves(a), halfOf[H]() == bfloat16Kind)
}

// SumHalf returns the sum of the values of a as float32, in the canonical
// order of Sum: the bits of Sum over a converted to []float32, without the
// converted copy (a piece at a time, in registers and on the stack).
func SumHalf[H Half](a []H) float32 {
	return dotHalf(a, nil, nil)
}

// DotHalf returns the sum of the products a[i]*b[i] in float32, each
// rounded to float32: the bits of Dot over a and b converted to []float32.
// It panics if the lengths differ.
func DotHalf[H Half](a, b []H) float32 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("elem: DotHalf: slice lengths differ: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	return dotHalf(a, b, nil)
}

// DotHalfFloat32 is DotHalf of half weights a and float32 values b.
func DotHalfFloat32[H Half](a []H, b []float32) float32 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("elem: DotHalfFloat32: slice lengths differ: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	return dotHalf(a, nil, b)
}

// dotHalf is Sum (b and f nil) or Dot of a widened with b widened or with
// f: Sum's and Dot's own calls for a few values, otherwise their lanes,
// by the fused kernel and their lane kernels on widened pieces (the lanes
// carry on across pieces, which are whole multiples of Lanes), and their
// result rules over the values a piece at a time. The pieces live in the
// functions that need them: zeroing them here took 29% of a fused
// DotHalf of 16000.
func dotHalf[H Half](a, b []H, f []float32) float32 {
	if len(a) <= smallReduce {
		return dotHalfSmall(a, b, f)
	}
	var acc [kernel.Lanes]float32 // +0, as Sum's and Dot's
	var hb []uint16
	if b != nil {
		hb = halves(b)
	}
	// The fused kernel takes whole rounds of the lanes, the lane kernels
	// the rest (from lane 0 again, so the lanes carry on).
	if done := kernel.HalfDot(acc[:], halves(a), hb, f, halfOf[H]() == bfloat16Kind); done < len(a) {
		dotHalfPieces(&acc, a, b, f, done)
	}
	s := kernel.SumTree(acc[:])
	if s == 0 || s != s {
		return dotHalfRules(s, a, b, f)
	}
	return s
}

// halfPieces widens a half operand a piece at a time beside the second
// operand (b widened, or f as it is, or none).
type halfPieces[H Half] struct {
	x, y [halfPiece]float32
	b    []H
	f    []float32
}

// second returns the piece of n values at off of the second operand.
func (p *halfPieces[H]) second(off, n int) []float32 {
	switch {
	case p.b != nil:
		widen(p.y[:n], p.b[off:off+n])
		return p.y[:n]
	case p.f != nil:
		return p.f[off : off+n]
	}
	return nil
}

// dotHalfSmall is Sum's and Dot's own short order over a few values.
func dotHalfSmall[H Half](a, b []H, f []float32) float32 {
	p := halfPieces[H]{b: b, f: f}
	widen(p.x[:len(a)], a)
	if s := p.second(0, len(a)); s != nil {
		return Dot(p.x[:len(a)], s)
	}
	return Sum(p.x[:len(a)])
}

// dotHalfPieces adds the values of a from done on (or their products)
// into acc by the lane kernels, a widened piece at a time.
func dotHalfPieces[H Half](acc *[kernel.Lanes]float32, a, b []H, f []float32, done int) {
	p := halfPieces[H]{b: b, f: f}
	for off := done; off < len(a); off += halfPiece {
		n := min(halfPiece, len(a)-off)
		widen(p.x[:n], a[off:off+n])
		if s := p.second(off, n); s != nil {
			kernel.Dot(acc[:], p.x[:n], s)
		} else {
			kernel.Sum(acc[:], p.x[:n])
		}
	}
}

// dotHalfRules is Sum's result rules for a lane sum s that is zero or a
// NaN, over the terms a piece at a time: the zero's sign, the first NaN.
func dotHalfRules[H Half](s float32, a, b []H, f []float32) float32 {
	p := halfPieces[H]{b: b, f: f}
	for off := 0; off < len(a); off += halfPiece {
		n := min(halfPiece, len(a)-off)
		widen(p.x[:n], a[off:off+n])
		y := p.second(off, n)
		switch {
		case s == 0 && !math.Signbit(float64(withZeroSign(0, p.x[:n], y))):
			return s // a term other than -0: the sum's own zero
		case s != s && hasNaN(p.x[:n], y):
			return kernel.SumResult(s, p.x[:n], y) // the first NaN, quiet
		}
	}
	if s == 0 {
		return float32(math.Copysign(0, -1)) // every term -0
	}
	return kernel.DefaultNaN[float32]()
}

// hasNaN reports whether x or y holds a NaN.
func hasNaN(x, y []float32) bool {
	return kernel.FindNaN(x) < len(x) || kernel.FindNaN(y) < len(y)
}

// Norm2Half returns the Euclidean norm of the values of a as float32: the
// bits of Norm2 over a converted to []float32, a piece at a time.
func Norm2Half[H Half](a []H) float32 {
	var x [halfPiece]float32
	var s [4]float64
	for off := 0; off < len(a); off += halfPiece {
		n := min(halfPiece, len(a)-off)
		widen(x[:n], a[off:off+n])
		sumSquares32(&s, x[:n])
	}
	r := (s[0] + s[2]) + (s[1] + s[3])
	if r != r { // Norm2's NaN: the first one, quiet and positive
		for off := 0; off < len(a); off += halfPiece {
			n := min(halfPiece, len(a)-off)
			widen(x[:n], a[off:off+n])
			if i := kernel.FindNaN(x[:n]); i < n {
				return kernel.Quiet(math.Float32frombits(math.Float32bits(x[i]) &^ (1 << 31)))
			}
		}
	}
	return float32(math.Sqrt(r))
}

// ScaleHalf sets dst[i] = float32(w[i]) * s, rounded once: the dequantising
// step of inference, one pass over the weights. It panics if the lengths
// differ or dst and w share memory.
func ScaleHalf[H Half](dst []float32, w []H, s float32) {
	if !fitsAny(dst, w) {
		mustFit("ScaleHalf", in("dst", dst), in("w", w))
	}
	var x [halfPiece]float32
	for off := 0; off < len(dst); off += halfPiece {
		n := min(halfPiece, len(dst)-off)
		widen(x[:n], w[off:off+n])
		MulScalar(dst[off:off+n], x[:n], s)
	}
}
