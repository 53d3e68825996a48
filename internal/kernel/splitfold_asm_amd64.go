//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// splitFoldKernel runs the split-fold kernel for T's size and cols on the
// largest whole number of registers of rows, and returns how many it
// computed: none when there is no kernel.
func splitFoldKernel[T Number](dst, src []T, cols, op int) int {
	if !isFloat[T]() || !cpu.X86.HasAVX2 {
		return 0
	}
	size := int(unsafe.Sizeof(T(0)))
	n := len(dst) &^ (32/size - 1)
	if n == 0 {
		return 0
	}
	if raceEnabled {
		raceWrite(dst[:n])
		raceRead(src[:n*cols])
	}
	d, s := (*byte)(unsafe.Pointer(unsafe.SliceData(dst))), (*byte)(unsafe.Pointer(unsafe.SliceData(src)))
	switch [2]int{size, cols} {
	case [2]int{4, 2}:
		splitFold4x2AVX2(d, s, n, op)
	case [2]int{4, 3}:
		splitFold4x3AVX2(d, s, n, op)
	case [2]int{4, 4}:
		splitFold4x4AVX2(d, s, n, op)
	case [2]int{8, 2}:
		splitFold8x2AVX2(d, s, n, op)
	case [2]int{8, 3}:
		splitFold8x3AVX2(d, s, n, op)
	default:
		return 0
	}
	return n
}
