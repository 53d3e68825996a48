package kernel

import (
	"math"
	"math/bits"
	"unsafe"
)

// The folds SplitFold computes.
const (
	SplitFoldSum = iota
	SplitFoldMax
	SplitFoldMin
	SplitFoldMean  // the sum divided by cols, rounded once more
	SplitFoldSqDev // the sum of the squared deviations from the mean

	// The kernels' ops of SplitArg, whose results are indexes.
	splitFoldArgMax
	splitFoldArgMin
	// The kernels' ops of SplitFoldVar: SqDev divided by the divisor in
	// the op's bits from 8 on, and its square root.
	splitFoldVar
	splitFoldStd
)

// SplitFold sets dst[r], for r < len(dst), to the fold op (SplitFoldSum,
// SplitFoldMax, SplitFoldMin, SplitFoldMean, SplitFoldSqDev or one of
// SplitFoldVarOp) of the cols
// (2 to 4) contiguous floats src[r*cols:(r+1)*cols], combined in the
// canonical order of Sum with the identity accumulators left out: (x0 +
// x2) + x1 for three, (x0 + x2) + (x1 + x3) for four; max and min are
// Go's builtins. SplitFoldSqDev folds the squares (x - m)*(x - m), each
// difference and product rounded, with m the row's SplitFoldMean: the sum
// a variance divides, with the bits of its passes. It is a reduction
// along a short contiguous axis (the coordinates of xyz points, the
// channels of RGB pixels) in one pass, the rows split into columns in
// registers where the implementation has a kernel. Every result that is
// not a NaN has the bits of the fold; a NaN result is a NaN whose bits
// depend on the implementation, which the caller replaces (the first NaN
// value, quieted for a sum), as it must anyway for a sum's NaN made of
// infinities. src holds at least len(dst)*cols elements.
func SplitFold[T Number](dst, src []T, cols, op int) {
	src = src[:len(dst)*cols]
	n := 0
	if Current() != Generic {
		n = splitFoldKernel(dst, src, cols, op)
	}
	splitFoldGeneric(dst[n:], src[n*cols:], cols, op)
}

// SplitFoldVarOp is the SplitFold op of the SplitFoldSqDev fold divided
// by divisor (1 to 255), and of its square root where std is set: a
// variance's (standard deviation's) passes over a short contiguous axis
// in one.
func SplitFoldVarOp(divisor int, std bool) int {
	if divisor < 1 || divisor > 255 {
		panic("kernel: SplitFoldVarOp of a divisor out of 1 to 255")
	}
	if std {
		return splitFoldStd | divisor<<8
	}
	return splitFoldVar | divisor<<8
}

// SplitArg sets dst[r], for r < len(dst), to the index of the greatest
// (least, where greatest is false) of the cols (2 to 4) contiguous floats
// src[r*cols:(r+1)*cols] by elem.ArgMax's rule: the first index of the
// extreme, +0 above -0, or the first NaN's index if there is one. It is
// the argmax along a short contiguous axis in one pass, the rows split
// into columns in registers as SplitFold splits them, where the
// implementation has a kernel.
func SplitArg[T Number](dst []int, src []T, cols int, greatest bool) {
	src = src[:len(dst)*cols]
	op := splitFoldArgMax
	if !greatest {
		op = splitFoldArgMin
	}
	n := 0
	if SplitArgRuns[T](cols) {
		n = splitFoldKernel(dst, src, cols, op)
	}
	splitArgGeneric(dst[n:], src[n*cols:], cols, greatest)
}

// SplitArgRuns reports whether SplitArg runs a kernel for T and cols under
// the implementation in effect: elsewhere its loop is slower than the
// column kernels a caller has beside it.
func SplitArgRuns[T Number](cols int) bool {
	return Current() != Generic && bits.UintSize == 64 && splitFoldRuns[T](cols)
}

// splitArgGeneric is SplitArg as the kernels compute it: each value's
// bits a signed key that orders the floats with -0 below +0, the first
// strictly greater (less) key, then the first NaN.
func splitArgGeneric[T Number](dst []int, src []T, cols int, greatest bool) {
	key := func(x T) int64 {
		if unsafe.Sizeof(x) == 4 {
			b := int32(math.Float32bits(float32(x)))
			return int64(b ^ int32(uint32(b>>31)>>1))
		}
		b := int64(math.Float64bits(float64(x)))
		return b ^ int64(uint64(b>>63)>>1)
	}
	for r := range dst {
		x := src[r*cols:][:cols]
		at, best := 0, key(x[0])
		for j := 1; j < cols; j++ {
			if k := key(x[j]); greatest && k > best || !greatest && k < best {
				at, best = j, k
			}
		}
		for j := cols - 1; j >= 0; j-- {
			if x[j] != x[j] {
				at = j
			}
		}
		dst[r] = at
	}
}

// splitFoldGeneric is SplitFold as the plain loop, the reference.
func splitFoldGeneric[T Number](dst, src []T, cols, op int) {
	kind := op & 255
	combine := func(x, y T) T {
		switch kind {
		case SplitFoldMax:
			return max(x, y)
		case SplitFoldMin:
			return min(x, y)
		}
		return x + y
	}
	tree := func(x []T) T {
		switch cols {
		case 2:
			return combine(x[0], x[1])
		case 3:
			return combine(combine(x[0], x[2]), x[1])
		}
		return combine(combine(x[0], x[2]), combine(x[1], x[3]))
	}
	var sq [4]T
	for r := range dst {
		x := src[r*cols:][:cols]
		dst[r] = tree(x)
		moment := kind == SplitFoldSqDev || kind == splitFoldVar || kind == splitFoldStd
		if kind == SplitFoldMean || moment {
			dst[r] /= T(cols)
		}
		if moment {
			for j, v := range x {
				d := v - dst[r]
				sq[j] = T(d * d)
			}
			dst[r] = tree(sq[:cols])
		}
		if kind == splitFoldVar || kind == splitFoldStd {
			dst[r] /= T(op >> 8)
		}
		if kind == splitFoldStd {
			dst[r] = T(math.Sqrt(float64(dst[r])))
		}
	}
}
