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

// transposeNarrow runs a narrow transposition kernel for T's size on the
// largest whole number of registers of rows (of columns when
// interleaving), and returns the rows and columns of the block it moved
// from the top left: split when src is a contiguous block of 2-4 columns
// (lds == cols), interleave when dst is one (ldd == rows); none when the
// implementation in use is Generic or there is no kernel.
func transposeNarrow[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) (rr, cc int) {
	if Current() == Generic || !cpu.X86.HasAVX2 {
		return 0, 0
	}
	side := 32 / int(unsafe.Sizeof(T(0)))
	d, s := (*byte)(dst), (*byte)(src)
	if lds == cols {
		if n := rows &^ (side - 1); n > 0 && narrowSplit(side, cols, d, s, ldd, n) {
			return n, cols
		}
	}
	if ldd == rows {
		if n := cols &^ (side - 1); n > 0 && narrowInterleave(side, rows, d, s, lds, n) {
			return rows, n
		}
	}
	return 0, 0
}

// narrowSplit runs the split kernel of k columns of side-lane elements, if
// there is one (direct calls: a func value would make dst and src escape).
func narrowSplit(side, k int, dst, src *byte, ld, n int) bool {
	switch [2]int{side, k} {
	case [2]int{32, 2}:
		split1x2AVX2(dst, src, ld, n)
	case [2]int{32, 3}:
		split1x3AVX2(dst, src, ld, n)
	case [2]int{32, 4}:
		split1x4AVX2(dst, src, ld, n)
	case [2]int{16, 2}:
		split2x2AVX2(dst, src, ld, n)
	case [2]int{16, 3}:
		split2x3AVX2(dst, src, ld, n)
	case [2]int{16, 4}:
		split2x4AVX2(dst, src, ld, n)
	case [2]int{8, 2}:
		split4x2AVX2(dst, src, ld, n)
	case [2]int{8, 3}:
		split4x3AVX2(dst, src, ld, n)
	case [2]int{8, 4}:
		split4x4AVX2(dst, src, ld, n)
	case [2]int{4, 2}:
		split8x2AVX2(dst, src, ld, n)
	case [2]int{4, 3}:
		split8x3AVX2(dst, src, ld, n)
	default:
		return false
	}
	return true
}

// narrowInterleave is narrowSplit's inverse.
func narrowInterleave(side, k int, dst, src *byte, ld, n int) bool {
	switch [2]int{side, k} {
	case [2]int{32, 2}:
		interleave1x2AVX2(dst, src, ld, n)
	case [2]int{32, 3}:
		interleave1x3AVX2(dst, src, ld, n)
	case [2]int{32, 4}:
		interleave1x4AVX2(dst, src, ld, n)
	case [2]int{16, 2}:
		interleave2x2AVX2(dst, src, ld, n)
	case [2]int{16, 3}:
		interleave2x3AVX2(dst, src, ld, n)
	case [2]int{16, 4}:
		interleave2x4AVX2(dst, src, ld, n)
	case [2]int{8, 2}:
		interleave4x2AVX2(dst, src, ld, n)
	case [2]int{8, 3}:
		interleave4x3AVX2(dst, src, ld, n)
	case [2]int{8, 4}:
		interleave4x4AVX2(dst, src, ld, n)
	case [2]int{4, 2}:
		interleave8x2AVX2(dst, src, ld, n)
	case [2]int{4, 3}:
		interleave8x3AVX2(dst, src, ld, n)
	default:
		return false
	}
	return true
}
