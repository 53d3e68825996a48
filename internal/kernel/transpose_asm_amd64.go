//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// transposeSquares runs the transposition kernel for T's size on the
// largest block of whole squares at the top left, and returns its rows and
// columns: none when the implementation in use is Generic or T's size has
// no kernel.
func transposeSquares[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) (rr, cc int) {
	if Current() == Generic || !cpu.X86.HasAVX {
		return 0, 0
	}
	switch unsafe.Sizeof(T(0)) {
	case 4:
		rr, cc = rows&^7, cols&^7
		if rr > 0 && cc > 0 {
			transpose4AVX2((*byte)(dst), ldd, (*byte)(src), lds, rr, cc)
			return rr, cc
		}
	case 8:
		rr, cc = rows&^3, cols&^3
		if rr > 0 && cc > 0 {
			transpose8AVX2((*byte)(dst), ldd, (*byte)(src), lds, rr, cc)
			return rr, cc
		}
	}
	return 0, 0
}
