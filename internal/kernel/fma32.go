package kernel

import (
	"math"
	"runtime"

	"golang.org/x/sys/cpu"
)

// fma32 returns a*b + c rounded once, to the nearest float32 (ties to even):
// what an FMA instruction on float32 lanes gives. float32(math.FMA(...))
// would round twice, once to float64 and once to float32, and differ when
// the float64 result falls exactly halfway between two float32s.
//
// The product of two float32s is exact in float64, so p + c, rounded to
// float64 as s, misses the exact sum by e, which TwoSum recovers exactly.
// Rounding s to float32 is then right unless s is exactly a float32
// rounding midpoint and e is not zero: the exact sum lies on e's side of
// the midpoint, and rounds to the float32 on that side.
//
// Where math.FMA is an instruction, its float64 result s, rounded once,
// settles every case but that of a midpoint first: rounding s to float32
// is then right, as no float32 midpoint (each a float64) can lie between
// s and the exact sum. That costs about 2 ns an element against 9.
func fma32(a, b, c float32) float32 {
	if hardwareFMA { // a NaN or an infinity fails notMidpoint32 too
		if s := math.FMA(float64(a), float64(b), float64(c)); notMidpoint32(s) {
			return float32(s)
		}
	}
	if r, ok := fma32NaN(a, b, c); ok {
		return r
	}
	p := float64(float64(a) * float64(b)) // exact; the conversion forbids fusing it with the sum
	z := float64(c)
	s := p + z
	if math.IsInf(s, 0) || math.IsNaN(s) || math.IsInf(p, 0) || math.IsInf(z, 0) {
		return float32(s) // an infinite operand: no rounding at all, or an invalid operation
	}
	bb := s - p
	e := (p - (s - bb)) + (z - bb) // p + z == s + e exactly
	r := float32(s)
	if e == 0 {
		return r
	}
	near, far := widen32(r), widen32(math.Nextafter32(r, float32(math.Copysign(math.Inf(1), s-widen32(r)))))
	if near == s || (near+far)/2 != s {
		return r // s is a float32, or not a midpoint: one rounding suffices
	}
	if (e > 0) == (far > near) {
		return narrow32(far)
	}
	return narrow32(near)
}

// hardwareFMA is whether math.FMA is one instruction on this CPU (Go
// emits it on these architectures, on amd64 when the CPU has FMA3).
var hardwareFMA = runtime.GOARCH == "amd64" && cpu.X86.HasFMA || runtime.GOARCH == "arm64" ||
	runtime.GOARCH == "ppc64le" || runtime.GOARCH == "ppc64" || runtime.GOARCH == "s390x" || runtime.GOARCH == "riscv64" || runtime.GOARCH == "loong64"

// notMidpoint32 reports that s is in float32's normal range and no float32
// rounding midpoint: its float64 bits below float32's last place are not
// exactly one half of it (a midpoint there has 25 significant bits).
// Outside that range it says nothing (false).
func notMidpoint32(s float64) bool {
	abs := math.Float64bits(s) &^ (1 << 63)
	return abs >= math.Float64bits(0x1p-126) && abs <= math.Float64bits(math.MaxFloat32) && abs&(1<<29-1) != 1<<28
}

// widen32 is x as a float64, with the infinities standing for ±2^128, where
// the float32 rounding puts them: the midpoint between MaxFloat32 and
// infinity is that between MaxFloat32 and 2^128.
func widen32(x float32) float64 {
	if math.IsInf(float64(x), 0) {
		return math.Copysign(0x1p128, float64(x))
	}
	return float64(x)
}

// narrow32 inverts widen32.
func narrow32(x float64) float32 {
	if math.Abs(x) == 0x1p128 {
		return float32(math.Copysign(math.Inf(1), x))
	}
	return float32(x)
}

// quiet32 sets the quiet bit of a NaN, as an instruction does when it
// passes a signalling NaN on.
func quiet32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) | 1<<22) }

func isNaN32(x float32) bool { return x != x }

// FMA32 is a*b + c rounded once to float32: the float32 FMA of every
// implementation, for package elem's loops over short slices.
func FMA32(a, b, c float32) float32 { return fma32(a, b, c) }
