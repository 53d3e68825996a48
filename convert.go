package elem

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// Convert sets dst[i] = D(src[i]), between any two element types: Go's
// conversion, bit for bit, except where Go leaves it implementation-defined
// (a float that does not fit the integer type D), where elem defines it the
// same on every CPU: the float is truncated toward zero, NaN gives 0, and a
// value below or above D's range gives D's minimum or maximum. dst may be
// exactly src (same memory) when both types have the same size; any other
// overlap panics, as do different lengths. Float16 and BFloat16 convert
// as the values they hold (not as uint16): see their rules.
func Convert[D, S Number](dst []D, src []S) {
	if !fitsAny(dst, src) {
		mustFit("Convert", in("dst", dst), in("src", src))
	}
	// The size test folds to false in every instantiation without a 16-bit
	// type, which then has no call to convertHalf (TestSmallPathsCallNothing).
	if unsafe.Sizeof(D(0)) == 2 || unsafe.Sizeof(S(0)) == 2 {
		if to, from := halfOf[D](), halfOf[S](); to != notHalf || from != notHalf {
			convertHalf(dst, src, to, from)
			return
		}
	}
	if len(dst) <= smallN && (isFloat[D]() || !isFloat[S]()) { // see smallN
		// Go's conversion, the kernels' reference, except from floats to
		// integers, whose saturation the kernels' path has.
		src = src[:len(dst)]
		for i := range dst {
			dst[i] = D(src[i])
		}
		return
	}
	stream := kernel.StreamFlat[D](len(dst), 2)
	kernel.Convert(1, len(dst), dst, 0, src, 0, stream)
	kernel.FenceAfter(stream)
}
