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

// transposeNarrow runs the narrow transposition kernel for T's size and
// cols on the largest whole number of registers of rows, when src's rows
// are contiguous (lds == cols), and returns the rows it moved: none when
// the implementation in use is Generic or there is no kernel.
func transposeNarrow[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) int {
	if Current() == Generic || !cpu.X86.HasAVX2 || lds != cols {
		return 0
	}
	side := 32 / int(unsafe.Sizeof(T(0)))
	rr := rows &^ (side - 1)
	if rr == 0 {
		return 0
	}
	d, s := (*byte)(dst), (*byte)(src)
	switch side<<4 | cols { // direct calls: a func value would make dst and src escape
	case 8<<4 | 2:
		narrow4x2AVX2(d, ldd, s, rr)
	case 8<<4 | 3:
		narrow4x3AVX2(d, ldd, s, rr)
	case 8<<4 | 4:
		narrow4x4AVX2(d, ldd, s, rr)
	case 4<<4 | 2:
		narrow8x2AVX2(d, ldd, s, rr)
	case 4<<4 | 3:
		narrow8x3AVX2(d, ldd, s, rr)
	default:
		return 0
	}
	return rr
}
