//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// transposeSquares runs the transposition kernels for T's size on the
// largest block of whole squares at the top left, and returns its rows and
// columns: none when the implementation in use is Generic or T's size has
// no kernel. Where the dispatch gives the block's bytes to AVX-512, its
// squares of whole cache lines take as much of the block as they cover
// (the AVX2 squares fill half a line of dst each, whose other half a
// later band writes), and the AVX2 squares the strips right of and below
// it; with stream, streaming stores where every row of dst starts on a
// cache line. The figures (Zen 5, a 1024x1024 float32 matrix transposed
// in bands of 16 rows: 3.6-4.0x a contiguous copy before, 1.5-1.9x
// after) are in docs/views.md.
func transposeSquares[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int, stream bool) (rr, cc int) {
	if Current() == Generic || !cpu.X86.HasAVX2 {
		return 0, 0
	}
	size := int(unsafe.Sizeof(T(0)))
	if size != 4 && size != 8 {
		return 0, 0
	}
	side := 32 / size // of an AVX2 square
	rr, cc = rows&^(side-1), cols&^(side-1)
	if rr == 0 || cc == 0 {
		return 0, 0
	}
	d, s := (*byte)(dst), (*byte)(src)
	wr, wc := rows&^(2*side-1), cols&^(2*side-1) // the AVX-512 block
	if wr == 0 || wc == 0 || implFor(classMemory, 2*rr*cc*size, false) != AVX512 {
		transposeNarrowSquares(size, d, ldd, s, lds, rr, cc)
		return rr, cc
	}
	lines := stream && uintptr(dst)%64 == 0 && ldd*size%64 == 0
	switch {
	case size == 4 && lines:
		transpose4AVX512Stream(d, ldd, s, lds, wr, wc)
	case size == 4:
		transpose4AVX512(d, ldd, s, lds, wr, wc)
	case lines:
		transpose8AVX512Stream(d, ldd, s, lds, wr, wc)
	default:
		transpose8AVX512(d, ldd, s, lds, wr, wc)
	}
	if wc < cc { // right of the block: dst's rows below it
		transposeNarrowSquares(size, (*byte)(unsafe.Add(dst, wc*ldd*size)), ldd, (*byte)(unsafe.Add(src, wc*size)), lds, wr, cc-wc)
	}
	if wr < rr { // below it, every column
		transposeNarrowSquares(size, (*byte)(unsafe.Add(dst, wr*size)), ldd, (*byte)(unsafe.Add(src, wr*lds*size)), lds, rr-wr, cc)
	}
	return rr, cc
}

// transposeNarrowSquares runs the AVX2 kernel of size-byte elements.
func transposeNarrowSquares(size int, dst *byte, ldd int, src *byte, lds int, rows, cols int) {
	if size == 4 {
		transpose4AVX2(dst, ldd, src, lds, rows, cols)
	} else {
		transpose8AVX2(dst, ldd, src, lds, rows, cols)
	}
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
	size := int(unsafe.Sizeof(T(0)))
	side := 32 / size
	d, s := (*byte)(dst), (*byte)(src)
	if lds == cols {
		wide := 0 // rows split by the AVX-512 kernel
		if n := rows &^ (2*side - 1); n > 0 && wideSplits(size) && implFor(classMemory, 2*rows*cols*size, false) == AVX512 && narrowSplitWide(size, cols, d, s, ldd, n) {
			wide = n
			if rows-n < side {
				return n, cols
			}
			d, s = (*byte)(unsafe.Add(dst, n*size)), (*byte)(unsafe.Add(src, n*cols*size))
		}
		if n := (rows - wide) &^ (side - 1); n > 0 && narrowSplit(side, cols, d, s, ldd, n) {
			return wide + n, cols
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

// wideSplits reports whether the CPU runs the AVX-512 split kernels of
// size-byte elements: byte permutations are VBMI's, word ones and 64-bit
// masks BW's.
func wideSplits(size int) bool {
	switch size {
	case 1:
		return cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI
	case 2:
		return cpu.X86.HasAVX512BW
	}
	return cpu.X86.HasAVX512F
}

// narrowSplitWide is narrowSplit with the AVX-512 kernels, n a multiple
// of 64/size rows. Zen 5 (AMD EPYC family 26 model 2), CopyView of HWC
// images to CHW, see docs/views.md.
func narrowSplitWide(size, k int, dst, src *byte, ld, n int) bool {
	switch [2]int{size, k} {
	case [2]int{1, 2}:
		split1x2AVX512(dst, src, ld, n)
	case [2]int{1, 3}:
		split1x3AVX512(dst, src, ld, n)
	case [2]int{1, 4}:
		split1x4AVX512(dst, src, ld, n)
	case [2]int{2, 2}:
		split2x2AVX512(dst, src, ld, n)
	case [2]int{2, 3}:
		split2x3AVX512(dst, src, ld, n)
	case [2]int{2, 4}:
		split2x4AVX512(dst, src, ld, n)
	case [2]int{4, 2}:
		split4x2AVX512(dst, src, ld, n)
	case [2]int{4, 3}:
		split4x3AVX512(dst, src, ld, n)
	case [2]int{4, 4}:
		split4x4AVX512(dst, src, ld, n)
	case [2]int{8, 2}:
		split8x2AVX512(dst, src, ld, n)
	case [2]int{8, 3}:
		split8x3AVX512(dst, src, ld, n)
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
