//go:build !purego

package kernel

import "unsafe"

// narrowHalfKernel runs NarrowHalf's NEON kernel on the whole steps of dst
// and returns the number of values it converted (none under Generic).
func narrowHalfKernel(dst []uint16, src []float32, brain, _ bool) int {
	return halfKernel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst), true, brain)
}

// widenHalfKernel is narrowHalfKernel for WidenHalf. (Both ignore stream:
// the NEON kernels have no non-temporal stores.)
func widenHalfKernel(dst []float32, src []uint16, brain, _ bool) int {
	return halfKernel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst), false, brain)
}

// halfKernel converts the whole steps (8 values) of n values from src to
// dst, a narrowing from float32 or a widening to it, and returns how many
// it converted. The calls are direct: through a func value dst and src
// would escape.
func halfKernel(dst, src unsafe.Pointer, n int, narrow, brain bool) int {
	n &^= 7
	if n == 0 || implFor(classMemory, 6*n, false) != NEON {
		return 0
	}
	switch {
	case narrow && brain:
		bf16From32NEON((*uint16)(dst), (*float32)(src), n)
	case narrow:
		f16From32NEON((*uint16)(dst), (*float32)(src), n)
	case brain:
		bf16To32NEON((*float32)(dst), (*uint16)(src), n)
	default:
		f16To32NEON((*float32)(dst), (*uint16)(src), n)
	}
	return n
}

// HalfDot has no fused NEON kernel yet: the caller widens and uses Sum's
// and Dot's lane kernels.
func HalfDot([]float32, []uint16, []uint16, []float32, bool) int { return 0 }
