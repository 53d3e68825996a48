package broadcast

import (
	"unsafe"

	"github.com/simdkit/elem/internal/kernel"
)

// move copies the rows x cols elements of size bytes (1, 2, 4, 8 or 16)
// of src to dst, element (r, j) of each at its at + r*ld + j*inc, strides
// of any sign (0 repeats an element of src), bit for bit: elements move as
// unsigned integers of their size, never as floats. It is how tiles are
// gathered and scattered, and the kernel of a copy. The views' validation
// has proven every element inside its data: the loops index without
// bounds checks.
func move(size int, dst []byte, dp blockPos, src []byte, sp blockPos, rows, cols int, stream bool) {
	d := unsafe.Pointer(&dst[dp.at*size])
	s := unsafe.Pointer(&src[sp.at*size])
	switch size {
	case 1:
		moveNumbers[uint8](d, dp.ld, dp.inc, s, sp.ld, sp.inc, rows, cols, stream)
	case 2:
		moveNumbers[uint16](d, dp.ld, dp.inc, s, sp.ld, sp.inc, rows, cols, stream)
	case 4:
		moveNumbers[uint32](d, dp.ld, dp.inc, s, sp.ld, sp.inc, rows, cols, stream)
	case 8:
		moveNumbers[uint64](d, dp.ld, dp.inc, s, sp.ld, sp.inc, rows, cols, stream)
	default:
		moveElements[[2]uint64](d, dp.ld, dp.inc, s, sp.ld, sp.inc, rows, cols)
	}
}

// moveNumbers is move for elements of E's size, from element (0, 0) of
// dst and src: a block contiguous across the rows of one of them and
// along the rows of the other is a transposition, which kernel.Transpose
// runs a register square (or a split or interleave of narrow rows) at a
// time, with streaming stores where stream is set (the walk fences).
func moveNumbers[E kernel.Number](dst unsafe.Pointer, dld, dinc int, src unsafe.Pointer, sld, sinc int, rows, cols int, stream bool) {
	switch {
	case rows > 1 && cols > 1 && dinc == 1 && sld == 1: // src's columns are dst's rows
		rows, cols, dld, dinc, sld, sinc = cols, rows, dinc, dld, sinc, sld
		fallthrough
	case rows > 1 && cols > 1 && dld == 1 && sinc == 1: // src's rows are dst's columns
		if stream {
			kernel.TransposeStream[E](dst, dinc, src, sld, rows, cols)
		} else {
			kernel.Transpose[E](dst, dinc, src, sld, rows, cols)
		}
	default:
		moveElements[E](dst, dld, dinc, src, sld, sinc, rows, cols)
	}
}

// moveElements is move for elements of E's size, from element (0, 0) of
// dst and src, a row at a time: rows of dst that are contiguous take a
// copy of a contiguous row of src or are filled with its repeated
// element; the others walk along the dim whose strides are the smaller.
func moveElements[E any](dst unsafe.Pointer, dld, dinc int, src unsafe.Pointer, sld, sinc int, rows, cols int) {
	size := int(unsafe.Sizeof(*new(E)))
	if dinc == 1 && sinc|1 == 1 {
		for r := range rows {
			row := unsafe.Slice((*E)(unsafe.Add(dst, r*dld*size)), cols)
			from := unsafe.Add(src, r*sld*size)
			if sinc == 1 {
				copy(row, unsafe.Slice((*E)(from), cols))
			} else {
				fillRow(row, *(*E)(from))
			}
		}
		return
	}
	if rows > 1 && abs(dinc)+abs(sinc) > abs(dld)+abs(sld) { // walk down the columns instead
		rows, cols, dld, dinc, sld, sinc = cols, rows, dinc, dld, sinc, sld
	}
	for r := range rows {
		copyStrided[E](unsafe.Add(dst, r*dld*size), dinc, unsafe.Add(src, r*sld*size), sinc, cols)
	}
}

// fillRow sets every element of row to v, doubling the filled part by
// copies (memmove's speed for long rows).
func fillRow[E any](row []E, v E) {
	row[0] = v
	for k := 1; k < len(row); k *= 2 {
		copy(row[k:], row[:k])
	}
}

// copyStrided copies n elements of E from src, inc elements apart, to dst,
// dinc elements apart, four at a time. Every pointer it forms is that of an
// element it copies: src and dst advance by offsets, never past their last
// element (nor, for a negative stride, before their first), which the
// unsafe.Pointer rules forbid even undereferenced.
func copyStrided[E any](dst unsafe.Pointer, dinc int, src unsafe.Pointer, inc, n int) {
	size := int(unsafe.Sizeof(*new(E)))
	ds, ss := dinc*size, inc*size
	d, s := 0, 0 // byte offsets of element j
	j := 0
	for ; j+4 <= n; j += 4 {
		v0 := *(*E)(unsafe.Add(src, s))
		v1 := *(*E)(unsafe.Add(src, s+ss))
		v2 := *(*E)(unsafe.Add(src, s+2*ss))
		v3 := *(*E)(unsafe.Add(src, s+3*ss))
		*(*E)(unsafe.Add(dst, d)) = v0
		*(*E)(unsafe.Add(dst, d+ds)) = v1
		*(*E)(unsafe.Add(dst, d+2*ds)) = v2
		*(*E)(unsafe.Add(dst, d+3*ds)) = v3
		s, d = s+4*ss, d+4*ds
	}
	for ; j < n; j++ {
		*(*E)(unsafe.Add(dst, d)) = *(*E)(unsafe.Add(src, s))
		s, d = s+ss, d+ds
	}
}
