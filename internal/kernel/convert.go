package kernel

import (
	"math"
	"unsafe"
)

// ReferenceConvert is convertGeneric: the reference every implementation of
// Convert must equal bit for bit.
func ReferenceConvert[D, S Number](m, n int, dst []D, ldd int, src []S, ldsrc int) {
	convertGeneric(m, n, dst, ldd, src, ldsrc)
}

// convertGeneric is the reference of Convert: dst[r*ldd+j] = D(src[r*ldsrc+j])
// by Go's conversion, except that a float converted to an integer type,
// which Go leaves implementation-defined when out of range, is truncated
// toward zero, saturated at the type's limits, and NaN gives 0 (see
// floatsToInts).
func convertGeneric[D, S Number](m, n int, dst []D, ldd int, src []S, ldsrc int) {
	for r := range m {
		convertRow(dst[r*ldd:][:n], src[r*ldsrc:][:n])
	}
}

func convertRow[D, S Number](d []D, s []S) {
	s = s[:len(d)]
	if typeOf[S]() <= tFloat64 && typeOf[D]() > tFloat64 {
		floatsToInts(d, s)
		return
	}
	for j := range d {
		d[j] = D(s[j])
	}
}

// floatsToInts converts floats to the integer type D by floatToInt's rule.
// A value strictly inside D's range widened by one (and below 2^63, where
// int64 ends) converts by the machine's truncation to int64, exact there on
// every architecture; anything else (NaN, the limits, beyond them) goes
// through floatToInt. The common case costs two predicted compares beside
// the plain conversion: the rule written out as a switch in the loop ran
// 3-6x slower than the plain loop, and a call per element as much again.
// The bounds are constants of each instantiation: D's minimum minus 1
// (which may round to the minimum in S: then the minimum itself takes the
// slow path) and D's maximum plus 1, both powers of two or next to one.
func floatsToInts[D, S Number](d []D, s []S) {
	var zero D
	bits := 8 * unsafe.Sizeof(zero)
	half := float64(uint64(1) << (bits - 1)) // 2^(bits-1)
	below, above := S(-half-1), S(half)
	if zero-1 > zero { // unsigned
		below, above = S(-half/half), S(min(2*half, 0x1p63)) // -1 as a value: S may be unsigned
	}
	s = s[:len(d)]
	for j := range d {
		if x := s[j]; x > below && x < above {
			d[j] = D(int64(x))
		} else {
			d[j] = floatToInt[D](float64(x))
		}
	}
}

// floatToInt converts x to the integer type D: truncated toward zero, NaN
// to 0, and a value beyond D's range to D's minimum or maximum. The limits
// are powers of two, exact in float64.
func floatToInt[D Number](x float64) D {
	var zero D
	bits := 8 * unsafe.Sizeof(zero)
	half := float64(uint64(1) << (bits - 1)) // 2^(bits-1)
	t := math.Trunc(x)
	if zero-1 > zero { // unsigned
		switch {
		case !(t >= 0): // below 0, or NaN
			return 0
		case t >= 2*half:
			return D(^uint64(0) >> (64 - bits))
		}
		return D(uint64(t))
	}
	switch {
	case x != x:
		return 0
	case t < -half:
		return D(int64(-1) << (bits - 1))
	case t >= half:
		return D(int64(^uint64(0) >> (65 - bits)))
	}
	return D(int64(t))
}

// convertChunked runs a conversion too big for one assembly call as pieces.
func convertChunked[D, S Number](m, n int, dst []D, ldd int, src []S, ldsrc int, stream bool) {
	limit := chunkElems[D]()
	rows := max(1, limit/n)
	for r := 0; r < m; r += rows {
		rr := min(rows, m-r)
		if n <= limit {
			Convert(rr, n, dst[r*ldd:], ldd, src[r*ldsrc:], ldsrc, stream)
			continue
		}
		for col := 0; col < n; col += limit {
			Convert(1, min(limit, n-col), dst[r*ldd+col:], ldd, src[r*ldsrc+col:], ldsrc, stream)
		}
	}
}

func raceConvert[D, S Number](m, n int, dst []D, ldd int, src []S, ldsrc int) {
	for r := range m {
		raceWrite(dst[r*ldd:][:n])
		raceRead(src[r*ldsrc:][:n])
	}
}
